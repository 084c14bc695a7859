package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import org.junit.jupiter.api.Test;

/**
 * GROUP BY over inputs four times the device budget runs as a partitioned aggregation on the GPU
 * and equals the CPU executor's answer, at low cardinality (groups of thousands of rows, each
 * within a stream's share) and high (most keys unique), with NULL keys, one and two keys.
 */
class OutOfCoreAggregateTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INTEGER), new Field("s", DataType.VARCHAR),
            new Field("b", DataType.BIGINT), new Field("d", DataType.DOUBLE), new Field("m", DataType.decimal(12, 2)));

    @Test
    void lowCardinality() {
        GpuTests.assumeGpu();
        compare(2001, Options.plain().withDistinct(60).withNulls(0.01).withVaryingDictionaries(), 1);
        compare(2002, Options.plain().withDistinct(12).withNulls(0.01).withVaryingDictionaries(), 2);
    }

    @Test
    void highCardinality() {
        GpuTests.assumeGpu();
        compare(2003, Options.plain().withDistinct(120_000).withNulls(0.05), 1);
        compare(2004, Options.plain().withDistinct(2_000).withNulls(0.05).withVaryingDictionaries(), 2);
    }

    private void compare(long seed, Options options, int keys) {
        try (ListSource source = randomSource(new RandomBatches(seed), SCHEMA, 150_000, options)) {
            AggregateNode node = GpuAggregateTest.node(source, keys);
            String context = "seed " + seed + ", " + keys + " key(s), " + options;
            NodeStats stats = assertSameOnGpuWithBudget(node, source.rowCount() * HostTable.rowBytes(SCHEMA) / 4, context);
            assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("out-of-core partitioned aggregation: ")),
                    context + ": notes " + stats.notes());
        }
    }
}
