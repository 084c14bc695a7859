package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.EvalInput;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import java.util.ArrayList;
import java.util.List;

/**
 * The build side of a hash join: the right input read whole into one batch, its rows grouped by
 * key in {@link PartitionedJoinKeys} (indexed in parallel when large); rows with a NULL key join nothing. Built once, by the first probe
 * that needs it, and read-only afterwards, so the workers of a parallel pipeline all probe the
 * same build (a failure to build is rethrown to each of them).
 */
final class JoinBuild implements AutoCloseable {
    private final JoinNode node;
    private final BatchStream input;
    private final ExecContext context;
    /** String keys of both sides as ids of one dictionary: the build side adds, probes look up. */
    private final StringDictionary.Builder strings = new StringDictionary.Builder();

    private Batch rows;
    private EvalInput rowInput;
    private PartitionedJoinKeys keys;
    /** Build rows grouped by key id: those of key k are rowsByKey[keyStart[k] .. keyStart[k + 1]). */
    private int[] keyStart;
    private int[] rowsByKey;
    private RuntimeException failure;
    private boolean closed;

    JoinBuild(JoinNode node, BatchStream input, ExecContext context) {
        this.node = node;
        this.input = input;
        this.context = context;
    }

    /** Encoders of the probe side's keys into this build's key space. */
    List<KeyEncoder> probeEncoders() {
        Schema left = node.left().schema();
        Schema right = node.right().schema();
        List<KeyEncoder> encoders = new ArrayList<>();
        for (int k = 0; k < node.leftKeys().size(); k++) {
            encoders.add(KeyEncoder.forJoin(left.type(node.leftKeys().get(k)), right.type(node.rightKeys().get(k)), strings,
                    false));
        }
        return encoders;
    }

    /** Reads and indexes the right input unless done already; waits while another thread does it. */
    synchronized void ensureBuilt() {
        if (failure != null) {
            throw failure;
        }
        if (rows != null) {
            return;
        }
        try {
            build();
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        }
    }

    private void build() {
        List<Batch> batches = new ArrayList<>();
        try {
            Batch batch;
            while (true) {
                context.checkCancelled();
                if ((batch = input.next()) == null) {
                    break;
                }
                batches.add(batch);
            }
        } catch (RuntimeException e) {
            BatchRows.closeAll(batches);
            throw e;
        }
        Schema right = node.right().schema();
        Schema left = node.left().schema();
        rows = BatchRows.concat(right, batches, context.allocator());
        rowInput = new BatchInput(rows);
        List<KeyEncoder> encoders = new ArrayList<>();
        for (int k = 0; k < node.rightKeys().size(); k++) {
            DataType own = right.type(node.rightKeys().get(k));
            encoders.add(KeyEncoder.forJoin(own, left.type(node.leftKeys().get(k)), strings, true));
        }
        JoinKeys encoded = JoinKeys.encode(rowInput, node.rightKeys(), encoders);
        int[] keyIds = new int[rows.rowCount()];
        keys = PartitionedJoinKeys.build(encoded.values(), encoded.unmatchable(), keyIds, context);
        groupRowsByKey(keyIds);
    }

    /** Fills keyStart/rowsByKey: a counting sort of the build rows by key id, keeping their order within a key. */
    private void groupRowsByKey(int[] keyIds) {
        int keyCount = keys.size();
        keyStart = new int[keyCount + 1];
        for (int id : keyIds) {
            if (id >= 0) {
                keyStart[id + 1]++;
            }
        }
        for (int k = 0; k < keyCount; k++) {
            keyStart[k + 1] += keyStart[k];
        }
        rowsByKey = new int[keyStart[keyCount]];
        int[] next = keyStart.clone();
        for (int row = 0; row < keyIds.length; row++) {
            if (keyIds[row] >= 0) {
                rowsByKey[next[keyIds[row]]++] = row;
            }
        }
    }

    Batch rows() {
        return rows;
    }

    EvalInput rowInput() {
        return rowInput;
    }

    PartitionedJoinKeys keys() {
        return keys;
    }

    int[] keyStart() {
        return keyStart;
    }

    int[] rowsByKey() {
        return rowsByKey;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (rows != null) {
                rows.close();
            }
        } finally {
            input.close();
        }
    }
}
