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
import io.warpdb.exec.cpu.hash.LongJoinTable;
import java.util.ArrayList;
import java.util.List;

/**
 * The build side of a hash join: the right input read whole into one batch, its rows indexed by
 * key (in parallel when large): a single key, or two that fit in 32 bits each, in a
 * {@link LongJoinTable}; other keys in {@link PartitionedJoinKeys} with the rows grouped by key id. Rows with a NULL key join
 * nothing. Probes ask {@link #match} where each probe row's matches are. Built once, by the first probe
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
    /**
     * The index of a join on one key, or on two whose build values all fit in 32 bits, packed
     * into one long (see {@link #packed}); null otherwise.
     */
    private LongJoinTable singleKey;
    private boolean pairPacked;
    /** With several keys: their ids, and the build rows grouped by id (key k's are rowsByKey[keyStart[k] .. keyStart[k + 1])). */
    private PartitionedJoinKeys keys;
    private int[] keyStart;
    private int[] rowsByKey;
    private RuntimeException failure;
    private boolean closed;
    /**
     * For RIGHT and FULL joins: the build rows some prober matched, flagged by all probers
     * without locks (they only ever set flags), read by the last prober to finish.
     */
    private volatile boolean[] matched;
    private final java.util.concurrent.atomic.AtomicInteger activeProbers = new java.util.concurrent.atomic.AtomicInteger();

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

    /** Counts a prober in; each must call {@link #finishProbing} once its probe input is exhausted. */
    void registerProber() {
        activeProbers.incrementAndGet();
    }

    /**
     * Counts a prober out. Returns the matched flags of the build rows to the last prober, which
     * then emits the unmatched ones (RIGHT, FULL); null to the others. The atomic count orders
     * every prober's flags before the last one's reads.
     */
    boolean[] finishProbing() {
        return activeProbers.decrementAndGet() == 0 ? matchedFlags() : null;
    }

    /** The shared matched flags of the build rows, created with the first request after the build. */
    boolean[] matchedFlags() {
        boolean[] flags = matched;
        if (flags == null) {
            synchronized (this) {
                if (matched == null) {
                    matched = new boolean[rows.rowCount()];
                }
                flags = matched;
            }
        }
        return flags;
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
        EncodedJoinKeys encoded = EncodedJoinKeys.encode(rowInput, node.rightKeys(), encoders);
        if (encoded.values().length == 1) {
            singleKey = LongJoinTable.build(encoded.values()[0], encoded.unmatchable(), context.parallelism(), Workers::runAll);
            return;
        }
        if (encoded.values().length == 2 && fitsInInts(encoded)) {
            pairPacked = true;
            singleKey = LongJoinTable.build(packed(encoded), encoded.unmatchable(), context.parallelism(), Workers::runAll);
            return;
        }
        int[] keyIds = new int[rows.rowCount()];
        keys = PartitionedJoinKeys.build(encoded.values(), encoded.unmatchable(), keyIds, context);
        groupRowsByKey(keyIds);
    }

    /**
     * For each probe row, where its matching build rows are: {@code counts[i]} of them, at
     * positions {@code starts[i] ..} (see {@link #buildRow}); 0 for rows flagged unmatchable.
     */
    void match(EncodedJoinKeys probe, int[] starts, int[] counts) {
        if (pairPacked) {
            // A probe pair with a value beyond 32 bits equals no build pair; packing would alias it.
            boolean[] unmatchable = probe.unmatchable().clone();
            long[][] values = probe.values();
            for (int row = 0; row < unmatchable.length; row++) {
                unmatchable[row] |= values[0][row] != (int) values[0][row] || values[1][row] != (int) values[1][row];
            }
            singleKey.probe(packed(new EncodedJoinKeys(values, unmatchable)), unmatchable, starts, counts);
            return;
        }
        if (singleKey != null) {
            singleKey.probe(probe.values()[0], probe.unmatchable(), starts, counts);
            return;
        }
        keys.find(probe.values(), probe.unmatchable(), starts);
        for (int row = 0; row < starts.length; row++) {
            int key = starts[row];
            counts[row] = key < 0 ? 0 : keyStart[key + 1] - keyStart[key];
            starts[row] = key < 0 ? 0 : keyStart[key];
        }
    }

    /** Whether every matchable row's two key values fit in an int. */
    private static boolean fitsInInts(EncodedJoinKeys keys) {
        long[][] values = keys.values();
        for (int row = 0; row < keys.unmatchable().length; row++) {
            if (!keys.unmatchable()[row] && (values[0][row] != (int) values[0][row] || values[1][row] != (int) values[1][row])) {
                return false;
            }
        }
        return true;
    }

    /** Two 32-bit keys per row as one long: equal exactly when both are equal. */
    private static long[] packed(EncodedJoinKeys keys) {
        long[][] values = keys.values();
        long[] out = new long[values[0].length];
        for (int row = 0; row < out.length; row++) {
            out[row] = values[0][row] << 32 | (values[1][row] & 0xffffffffL);
        }
        return out;
    }

    /** The table of a built join on one key (whose probe filter others may borrow); null for other joins. */
    LongJoinTable singleKeyTable() {
        return pairPacked ? null : singleKey;
    }

    /** The build row at a position of a match range. */
    int buildRow(int position) {
        return singleKey != null ? singleKey.buildRow(position) : rowsByKey[position];
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
