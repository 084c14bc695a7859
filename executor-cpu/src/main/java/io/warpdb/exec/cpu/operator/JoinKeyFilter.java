package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.exec.cpu.hash.LongJoinTable;
import java.util.List;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Sideways information passing in a pipeline: selects the scanned rows whose key can match
 * the build side of an inner or semi join higher up, or the indexed left rows of the SEMI or
 * ANTI join the pipeline streams into ({@link LeftBuildSemiJoinOperator}), before any join
 * gathers them. Each join lends its build's probe filter ({@link LongJoinTable#mayContain}),
 * tested on the scan's key column straight from the Arrow buffer. In TPC-H Q5 lineitem's 6 M rows meet the orders of 1994
 * (15 % pass) and Asia's suppliers (20 %): filtered together at the scan, 3 % of the rows reach
 * the joins, where otherwise the first join gathers 910 K rows for the second to drop most.
 *
 * <p>The operator that reads the scan runs the selection itself, after its own filter's cheap
 * conjuncts (see {@link RowFilter}), so that the rows are gathered once; {@link JoinKeyFilterOperator}
 * runs it where no such operator is. One instance per copy of a pipeline: it counts what passes.
 * A filter that keeps more than {@link #USELESS_PASS_RATE} of the rows it has tested, once it
 * has tested {@link #TRIAL_ROWS}, is turned off: it would cost more than the gathers it saves.
 */
final class JoinKeyFilter {
    static final double USELESS_PASS_RATE = 0.9;
    static final long TRIAL_ROWS = 100_000;

    /** A scan column holding the probe key of a join whose build must match it. */
    record KeyFilter(int column, JoinBuild build) {
    }

    private final List<KeyFilter> filters;
    private LongJoinTable[] tables;
    private long[] tested;
    private long[] passed;

    JoinKeyFilter(List<KeyFilter> filters) {
        this.filters = List.copyOf(filters);
    }

    /**
     * Writes to {@code out} the rows of {@code selected} (or the first {@code count} rows when
     * null) whose keys all may match; returns their count. {@code out} may be {@code selected}.
     */
    int select(Batch in, int[] selected, int count, int[] out) {
        if (tables == null) {
            loadFilters();
        }
        int[] rows = selected;
        for (int f = 0; f < tables.length && count > 0; f++) {
            if (tables[f] == null) {
                continue;
            }
            int kept = retain(in.vector(filters.get(f).column()), tables[f], rows, count, out);
            tested[f] += count;
            passed[f] += kept;
            if (tested[f] >= TRIAL_ROWS && passed[f] > USELESS_PASS_RATE * tested[f]) {
                tables[f] = null;
            }
            rows = out;
            count = kept;
        }
        if (rows != out) {
            for (int i = 0; i < count; i++) {
                out[i] = rows == null ? i : rows[i];
            }
        }
        return count;
    }

    /** Builds the joins' hash tables (each once, shared with the probes) and takes their filters. */
    private void loadFilters() {
        LongJoinTable[] loaded = new LongJoinTable[filters.size()];
        for (int f = 0; f < loaded.length; f++) {
            JoinBuild build = filters.get(f).build();
            build.ensureBuilt();
            loaded[f] = build.singleKeyTable();
        }
        tested = new long[loaded.length];
        passed = new long[loaded.length];
        tables = loaded;
    }

    /** Writes to {@code out} the rows (of {@code selected}, or all) whose non-NULL key the table may hold; returns their count. */
    private static int retain(FieldVector keys, LongJoinTable table, int[] selected, int count, int[] out) {
        long data = keys.getDataBuffer().memoryAddress();
        boolean wide = ((BaseFixedWidthVector) keys).getTypeWidth() == Long.BYTES;
        boolean anyNull = keys.getNullCount() > 0;
        long validity = keys.getValidityBuffer().memoryAddress();
        int kept = 0;
        // Without a branch on the outcome: about half the keys pass in TPC-H Q21's scans, where a
        // branch would be mispredicted at every other row.
        for (int i = 0; i < count; i++) {
            int row = selected == null ? i : selected[i];
            boolean present = !anyNull || (MemoryUtil.getByte(validity + (row >> 3)) >> (row & 7) & 1) != 0;
            long key = wide ? MemoryUtil.getLong(data + ((long) row << 3)) : MemoryUtil.getInt(data + ((long) row << 2));
            out[kept] = row;
            kept += present & table.mayContain(key) ? 1 : 0;
        }
        return kept;
    }
}
