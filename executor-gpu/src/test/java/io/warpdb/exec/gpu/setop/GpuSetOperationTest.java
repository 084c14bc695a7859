package io.warpdb.exec.gpu.setop;

import io.warpdb.core.plan.SetOpKind;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * UNION, INTERSECT and EXCEPT (DISTINCT and ALL) on the GPU against the CPU on random inputs:
 * every size pair (empty sides, 1 row, 31/32/33 rows, several tiles), duplicates within and
 * across the inputs (values drawn from shared pools), NULLs, Zipf skew and every column type.
 */
class GpuSetOperationTest extends GpuTestBase {
    private record Operation(SetOpKind kind, boolean all) {
    }

    private static final List<Operation> OPERATIONS = List.of(new Operation(SetOpKind.UNION, false),
            new Operation(SetOpKind.INTERSECT, false), new Operation(SetOpKind.INTERSECT, true),
            new Operation(SetOpKind.EXCEPT, false), new Operation(SetOpKind.EXCEPT, true));

    @BeforeEach
    void needsGpu() {
        GpuTests.assumeGpu();
    }

    @Test
    void everySizeOnEitherSide() {
        Schema schema = schema(DataType.INTEGER, DataType.VARCHAR);
        for (int leftRows : RandomBatches.SIZES) {
            for (int rightRows : RandomBatches.SIZES) {
                int distinct = Math.max(4, Math.min(leftRows, rightRows) / 3);
                check(10 + leftRows * 31L + rightRows, schema, Options.plain().withDistinct(distinct).withNulls(0.1)
                        .withVaryingDictionaries(), leftRows, rightRows);
            }
        }
    }

    @Test
    void everyColumnType() {
        Schema schema = schema(RandomBatches.allTypes().toArray(new DataType[0]));
        Options options = Options.plain().withDistinct(3).withNulls(0.2).withExtremes().withVaryingDictionaries();
        for (int[] size : new int[][] {{2049, 2047}, {100_003, 33}, {33, 100_003}}) {
            check(20 + size[0], schema, options, size[0], size[1]);
        }
    }

    @Test
    void skewedDuplicates() {
        Schema schema = schema(DataType.BIGINT, DataType.DATE, DataType.BOOLEAN);
        Options options = Options.plain().withDistinct(6).withZipf().withNulls(0.05);
        for (int[] size : new int[][] {{100_003, 100_003}, {1, 100_003}, {100_003, 1}, {2048, 0}}) {
            check(30 + size[0] + size[1], schema, options, size[0], size[1]);
        }
    }

    private void check(long seed, Schema schema, Options options, int leftRows, int rightRows) {
        RandomBatches random = new RandomBatches(seed);
        Options shared = options.withSharedPools(seed);
        try (ListSource l = randomSource(random, schema, leftRows, shared); ListSource r = randomSource(random, schema, rightRows, shared)) {
            for (Operation op : OPERATIONS) {
                SetOpNode node = new SetOpNode(op.kind(), op.all(), scan(l), scan(r), nullable(schema));
                assertSameOnGpu(node, false, "seed " + seed + ", rows " + leftRows + " x " + rightRows + ", " + node.describe()
                        + ", " + options);
            }
        }
    }

    private static Schema nullable(Schema schema) {
        return new Schema(schema.fields().stream().map(f -> new Field(f.name(), f.type().withNullable(true))).toList());
    }

    private static Schema schema(DataType... types) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            fields.add(new Field("c" + i, types[i]));
        }
        return new Schema(fields);
    }
}
