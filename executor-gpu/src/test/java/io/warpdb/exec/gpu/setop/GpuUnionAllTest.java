package io.warpdb.exec.gpu.setop;

import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.util.List;
import org.junit.jupiter.api.Test;

/** UNION ALL on the GPU against the CPU: empty and non-empty inputs, NULLs, differing dictionaries. */
class GpuUnionAllTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("s", DataType.VARCHAR), new Field("a", DataType.BIGINT),
            new Field("d", DataType.decimal(12, 2)), new Field("b", DataType.BOOLEAN), new Field("dt", DataType.DATE));

    @Test
    void unionAllMatchesTheCpu() {
        GpuTests.assumeGpu();
        RandomBatches random = new RandomBatches(80);
        List<Integer> sizes = List.of(0, 1, 33, 2049, 100_003);
        for (int left : sizes) {
            for (int right : List.of(0, 31, 5000)) {
                try (ListSource a = randomSource(random, SCHEMA, left, RandomBatches.Options.plain().withNulls(0.2).withVaryingDictionaries());
                        ListSource b = randomSource(random, SCHEMA, right, RandomBatches.Options.plain());
                        ListSource c = randomSource(random, SCHEMA, 7, RandomBatches.Options.plain().withNulls(1.0))) {
                    PlanNode plan = new UnionNode(List.of(scan(a), scan(b), scan(c)), SCHEMA);
                    ResultAssert.assertSameOrderedRows(planRows(plan, "cpu"), planRows(plan, "gpu"),
                            "union of " + left + ", " + right + " and 7 rows, seed " + random.seed());
                }
            }
        }
    }
}
