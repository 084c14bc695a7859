package io.warpdb.exec.gpu.join;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.List;

/**
 * The key columns of both join inputs as the kernels read them (KeySource descriptors of
 * sort/ordered_key.cuh), set up so that equal SQL values give equal 64-bit keys on both sides:
 * numbers by value (INTEGER and BIGINT sign-extend alike), doubles with -0.0 folded into 0.0 and
 * NaN canonical (as the CPU join), string codes through ids of their values shared by the two
 * dictionaries ({@link #codeKeys}), and a wide DECIMAL as two key columns, its upper and lower words.
 */
final class DeviceJoinKeys implements AutoCloseable {
    private final List<KeyColumn> probeColumns = new ArrayList<>();
    private final List<KeyColumn> buildColumns = new ArrayList<>();
    private DeviceBuffer probeDescriptors;
    private DeviceBuffer buildDescriptors;

    private DeviceJoinKeys() {
    }

    /** The keys of {@code node}: the left input probes, the right one builds. */
    static DeviceJoinKeys of(JoinNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        DeviceJoinKeys keys = new DeviceJoinKeys();
        try {
            for (int k = 0; k < node.leftKeys().size(); k++) {
                DeviceColumn probeColumn = left.column(node.leftKeys().get(k));
                DeviceColumn buildColumn = right.column(node.rightKeys().get(k));
                if (probeColumn.type().isWideDecimal()) {
                    // Both sides wide at one scale (unsupported): equal values have equal upper and lower words.
                    keys.probeColumns.addAll(KeyColumn.of(probeColumn, true, work));
                    keys.buildColumns.addAll(KeyColumn.of(buildColumn, true, work));
                    continue;
                }
                CodeKeys codes = probeColumn.type().kind().isString()
                        ? codeKeys(probeColumn.dictionary(), buildColumn.dictionary()) : CodeKeys.NONE;
                keys.probeColumns.add(KeyColumn.forEquality(probeColumn, codes.probe(), work));
                keys.buildColumns.add(KeyColumn.forEquality(buildColumn, codes.build(), work));
            }
            keys.probeDescriptors = work.upload(KeyColumn.descriptors(keys.probeColumns), "join probe key descriptors");
            keys.buildDescriptors = work.upload(KeyColumn.descriptors(keys.buildColumns), "join build key descriptors");
            return keys;
        } catch (RuntimeException e) {
            keys.close();
            throw e;
        }
    }

    /** Key columns per side: one per join key, two for a wide DECIMAL key (its upper and its lower word). */
    int count() {
        return probeColumns.size();
    }

    /** Key column {@code k} of the left (probe) input. */
    KeyColumn probeColumn(int k) {
        return probeColumns.get(k);
    }

    /** Key column {@code k} of the right (build) input. */
    KeyColumn buildColumn(int k) {
        return buildColumns.get(k);
    }

    DeviceBuffer probeDescriptors() {
        return probeDescriptors;
    }

    DeviceBuffer buildDescriptors() {
        return buildDescriptors;
    }

    /**
     * Why keys of these types cannot be matched on the GPU, or null when they can. Pairs the CPU
     * rejects (e.g. DATE with VARCHAR) are refused here too, so that the CPU reports the error.
     */
    static String unsupported(DataType left, DataType right) {
        TypeKind l = left.kind();
        TypeKind r = right.kind();
        if (left.isWideDecimal() != right.isWideDecimal()) {
            return "join keys " + left.sqlName() + " = " + right.sqlName() + " (a wide and a narrow DECIMAL) run on the CPU until the GPU"
                    + " join widens keys";
        }
        if (l.isString() && r.isString() || l == r && l != TypeKind.DECIMAL) {
            return null;
        }
        if (l.isExactNumeric() && r.isExactNumeric()) {
            return Decimals.scaleOf(left) == Decimals.scaleOf(right) ? null
                    : "join keys " + left.sqlName() + " = " + right.sqlName() + " of different scales run on the CPU until the GPU"
                            + " join rescales keys";
        }
        if (l.isNumeric() && r.isNumeric()) {
            return "join keys " + left.sqlName() + " = " + right.sqlName() + " (DOUBLE with an exact number) run on the CPU until"
                    + " the GPU join converts keys";
        }
        return "join keys " + left.sqlName() + " = " + right.sqlName() + " do not compare: the CPU reports the error";
    }

    /** Per-code keys of a probe and a build string column (null for other types). */
    record CodeKeys(int[] probe, int[] build) {
        static final CodeKeys NONE = new CodeKeys(null, null);
    }

    /**
     * Keys for the codes of two string dictionaries: equal strings get equal keys (also within a
     * dictionary that repeats values), and a probe string the build side lacks gets a key no build
     * code has.
     */
    static CodeKeys codeKeys(StringDictionary probe, StringDictionary build) {
        StringDictionary.Builder ids = new StringDictionary.Builder(build.size());
        int[] buildKeys = new int[build.size()];
        for (int code = 0; code < buildKeys.length; code++) {
            buildKeys[code] = ids.add(build.get(code));
        }
        int absent = ids.size();
        int[] probeKeys = new int[probe.size()];
        for (int code = 0; code < probeKeys.length; code++) {
            int id = ids.find(probe.get(code));
            probeKeys[code] = id < 0 ? absent : id;
        }
        return new CodeKeys(probeKeys, buildKeys);
    }

    @Override
    public void close() {
        probeColumns.forEach(KeyColumn::close);
        buildColumns.forEach(KeyColumn::close);
        if (probeDescriptors != null) {
            probeDescriptors.close();
        }
        if (buildDescriptors != null) {
            buildDescriptors.close();
        }
    }
}
