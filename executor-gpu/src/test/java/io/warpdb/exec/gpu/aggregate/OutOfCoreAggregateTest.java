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
 * within a stream's share) and high (most keys unique), with NULL keys, one and two keys; groups
 * larger than a stream's share and aggregations without keys run in chunks whose states merge.
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

    @Test
    void groupsBeyondAStreamsShareAndNoGroupsMergeChunkStates() {
        GpuTests.assumeGpu();
        // Three keys (and NULL) for 150,000 rows: every group is larger than a stream's share.
        NodeStats stats = compare(2005, Options.plain().withDistinct(3).withNulls(0.2).withVaryingDictionaries(), 1);
        assertTrue(stats.notes().stream().anyMatch(n -> n.contains("aggregated in chunks") && !n.contains(" 0 aggregated in chunks")),
                "notes " + stats.notes());
        compare(2006, Options.plain().withDistinct(5_000).withNulls(0.1).withVaryingDictionaries(), 0);
        compare(2007, Options.plain().withDistinct(40).withNulls(0.5), 0);
    }

    /** ANY_VALUE of strings by their codes in both out-of-core paths: partitions, and chunks of one recoded dictionary. */
    @Test
    void anyValueOfGroupKeys() {
        GpuTests.assumeGpu();
        for (int distinct : new int[] {3, 20_000}) {
            try (ListSource source = randomSource(new RandomBatches(2008), SCHEMA, 150_000,
                    Options.plain().withDistinct(distinct).withNulls(0.1).withVaryingDictionaries())) {
                AggregateNode node = GpuAggregateTest.anyValueOfKeys(source, 2);
                assertSameOnGpuWithBudget(node, source.rowCount() * HostTable.rowBytes(SCHEMA) / 4, distinct + " distinct values");
            }
        }
    }

    private NodeStats compare(long seed, Options options, int keys) {
        try (ListSource source = randomSource(new RandomBatches(seed), SCHEMA, 150_000, options)) {
            AggregateNode node = GpuAggregateTest.node(source, keys);
            String context = "seed " + seed + ", " + keys + " key(s), " + options;
            NodeStats stats = assertSameOnGpuWithBudget(node, source.rowCount() * HostTable.rowBytes(SCHEMA) / 4, context);
            String expected = keys == 0 ? "out-of-core chunked aggregation: " : "out-of-core partitioned aggregation: ";
            assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith(expected)), context + ": notes " + stats.notes());
            return stats;
        }
    }
}
