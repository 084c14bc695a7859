package io.warpdb.exec.gpu.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness itself, without a GPU: random sources scan repeatably and compare equal to themselves. */
class HarnessTest extends GpuTestBase {
    @Test
    void randomSourcesScanTheSameRowsEveryTime() {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < RandomBatches.allTypes().size(); i++) {
            fields.add(new Field("c" + i, RandomBatches.allTypes().get(i)));
        }
        Schema schema = new Schema(fields);
        RandomBatches random = new RandomBatches(42);
        RandomBatches.Options options = RandomBatches.Options.plain().withNulls(0.2).withDistinct(50).withZipf()
                .withExtremes().withVaryingDictionaries();
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, options)) {
                assertEquals(rows, source.rowCount());
                List<List<Object>> first = cpuRows(scan(source));
                List<List<Object>> second = cpuRows(scan(source));
                assertEquals(rows, first.size());
                ResultAssert.assertSameOrderedRows(first, second, "seed " + random.seed() + ", rows " + rows);
                if (rows > 1000) {
                    assertTrue(first.stream().anyMatch(r -> r.contains(null)), "NULLs generated");
                }
            }
        }
    }

    @Test
    void doublesCompareWithinRelativeTolerance() {
        assertTrue(ResultAssert.valuesEqual(1.0, 1.0 + 1e-12));
        assertTrue(ResultAssert.valuesEqual(Double.NaN, Double.NaN));
        assertTrue(ResultAssert.valuesEqual(0.0, -0.0));
        assertTrue(!ResultAssert.valuesEqual(1.0, 1.0001));
        assertTrue(!ResultAssert.valuesEqual(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
    }
}
