package io.warpdb.exec.gpu.sort;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The host merge of the external sort, without a device: the input is cut into runs as
 * {@link OutOfCoreSort} cuts it, each run sorted by the CPU executor (standing in for the device's
 * stable sort), and the merge must equal the CPU's sort of the whole input in order: ties in input
 * order (a unique payload column shows any instability), NULLs first or last, DESC, strings of
 * different dictionaries per run, -0.0 tying with 0.0, wide DECIMALs, OFFSET and LIMIT.
 */
class SortedRunMergeTest extends GpuTestBase {
    private static final Schema SCHEMA = new Schema(List.of(new Field("i", DataType.INTEGER), new Field("s", DataType.VARCHAR),
            new Field("d", DataType.DOUBLE), new Field("m", DataType.decimal(12, 2)), new Field("b", DataType.BOOLEAN),
            new Field("t", DataType.DATE), new Field("w", DataType.decimal(38, 2)), new Field("payload", DataType.BIGINT)));

    @Test
    void mergedRunsEqualTheWholeSortInOrder() {
        long seed = 1911;
        Options options = Options.plain().withDistinct(40).withNulls(0.15).withExtremes().withVaryingDictionaries();
        RandomBatches random = new RandomBatches(seed);
        try (ListSource source = randomSource(random, SCHEMA, 8_000, options)) {
            List<List<SortKey>> orders = List.of(
                    List.of(new SortKey(0, false, true)),
                    List.of(new SortKey(0, true, false), new SortKey(1, false, false)),
                    List.of(new SortKey(1, true, true), new SortKey(2, false, true)),
                    List.of(new SortKey(2, true, false)),
                    List.of(new SortKey(6, true, false), new SortKey(0, false, true)),
                    List.of(new SortKey(3, false, false), new SortKey(4, true, true), new SortKey(5, false, true)),
                    List.of());
            for (List<SortKey> keys : orders) {
                for (long[] window : new long[][] {{0, -1}, {37, 100}, {7_990, 50}, {9_000, 5}}) {
                    for (int runRows : new int[] {700, 20_000}) {
                        check(source, keys, window[0], window[1], runRows, "seed " + seed + ", keys " + keys + ", offset "
                                + window[0] + ", limit " + window[1] + ", runs of " + runRows);
                    }
                }
            }
        }
    }

    @Test
    void emptyRunsAndNoRunsMergeToTheirRows() {
        Schema schema = new Schema(List.of(new Field("i", DataType.INTEGER)));
        try (HostTable empty = new HostTable(schema, List.of());
                HostTable merged = SortedRunMerge.merge(schema, List.of(empty), List.of(new SortKey(0, false, true)), 0, -1, allocator);
                HostTable none = SortedRunMerge.merge(schema, List.of(), List.of(), 0, 10, allocator)) {
            assertEquals(0, merged.rows());
            assertEquals(0, none.rows());
        }
    }

    @Test
    void runRowsLeaveRoomForTheSortAndNeverReachZero() {
        long share = 3L << 20;
        long rows = OutOfCoreSort.runRows(20, 2, share);
        assertTrue(rows * (2 * 20 + 2 * OutOfCoreSort.KEY_ROW_BYTES) <= share / 2, "rows " + rows);
        assertEquals(1, OutOfCoreSort.runRows(1 << 30, 1, share));
        assertEquals(OutOfCoreSort.runRows(20, 1, share), OutOfCoreSort.runRows(20, 0, share), "LIMIT without keys");
    }

    /** Cuts the source into runs of {@code runRows}, sorts each on the CPU, merges them, and compares with the CPU's whole sort. */
    private void check(ListSource source, List<SortKey> keys, long offset, long limit, int runRows, String context) {
        List<List<Object>> expected = cpuRows(new SortNode(scan(source), keys, offset, limit));
        List<HostTable> runs = new ArrayList<>();
        try (HostTable input = new HostTable(SCHEMA, copies(source.batches()))) {
            for (List<Batch> chunk : input.chunks(runRows, allocator)) {
                try (ListSource piece = new ListSource(SCHEMA, chunk)) {
                    runs.add(cpuSorted(new SortNode(scan(piece), keys, 0, limit < 0 ? -1 : offset + limit)));
                }
            }
            try (HostTable merged = SortedRunMerge.merge(SCHEMA, runs, keys, offset, limit, allocator)) {
                ResultAssert.assertSameOrderedRows(expected, ResultAssert.rows(merged.batches()), context);
                assertTrue(merged.batches().stream().allMatch(b -> b.rowCount() <= SortedRunMerge.BATCH_ROWS), context);
            }
        } finally {
            runs.forEach(HostTable::close);
        }
    }

    private HostTable cpuSorted(SortNode node) {
        List<Batch> batches = new ArrayList<>();
        try (BatchStream stream = new CpuExecutorProvider().execute(node, new ExecContext(allocator))) {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                batches.add(b);
            }
        }
        return new HostTable(node.schema(), batches);
    }

    private List<Batch> copies(List<Batch> batches) {
        List<Batch> out = new ArrayList<>();
        for (Batch b : batches) {
            out.add(Batches.slice(b, 0, b.rowCount(), allocator));
        }
        return out;
    }
}
