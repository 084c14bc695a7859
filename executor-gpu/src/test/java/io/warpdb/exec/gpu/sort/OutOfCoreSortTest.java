package io.warpdb.exec.gpu.sort;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ORDER BY over inputs four times the device budget (a GPU executor whose queries may hold a
 * quarter of the input) runs as an external merge sort on the GPU, never on the CPU, and equals
 * the CPU executor's answer in order: ties (few distinct keys; a payload column shows any
 * instability), NULLs first and last, DESC, strings of different dictionaries per batch, OFFSET
 * and LIMIT, LIMIT without keys.
 */
class OutOfCoreSortTest extends GpuTestBase {
    private static final Schema SCHEMA = new Schema(List.of(new Field("k", DataType.INTEGER), new Field("s", DataType.VARCHAR),
            new Field("d", DataType.DOUBLE), new Field("payload", DataType.BIGINT)));

    @Test
    void sortsBeyondTheBudgetEqualTheCpuInOrder() {
        GpuTests.assumeGpu();
        long seed = 1921;
        Options options = Options.plain().withDistinct(300).withNulls(0.1).withExtremes().withVaryingDictionaries();
        RandomBatches random = new RandomBatches(seed);
        try (ListSource source = randomSource(random, SCHEMA, 150_000, options)) {
            long budget = source.rowCount() * HostTable.rowBytes(SCHEMA) / 4;
            List<List<SortKey>> orders = List.of(
                    List.of(new SortKey(0, false, true), new SortKey(1, true, false)),
                    List.of(new SortKey(1, false, false)),
                    List.of(new SortKey(2, true, true), new SortKey(0, false, false)),
                    List.of());
            for (List<SortKey> keys : orders) {
                for (long[] window : new long[][] {{0, -1}, {1_000, 500}, {0, 10}}) {
                    if (keys.isEmpty() && window[1] < 0) {
                        continue;  // no keys and no limit is not a sort
                    }
                    SortNode node = new SortNode(scan(source), keys, window[0], window[1]);
                    String context = "seed " + seed + ", " + node.describe();
                    NodeStats stats = assertSameOnGpuWithBudget(node, budget, true, context);
                    assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("inputs of ")), context + ": " + stats.notes());
                    assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("out-of-core sort: ")), context + ": " + stats.notes());
                    assertDealtOverEveryDevice(stats, "runs", context);
                }
            }
        }
    }
}
