package io.warpdb.exec.gpu.plan;

import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * VALUES on the GPU against the CPU executor: constant rows of every GPU type with NULLs and
 * duplicates, alone, in a UNION ALL with a scan (as TPC-DS's ROLLUP rewrites add their total rows;
 * the string dictionaries of both inputs merge) and under an aggregation grouping by a string.
 * Placement is checked without a device.
 */
class GpuValuesTest extends GpuTestBase {
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final Schema SCHEMA = Schema.of(new Field("s", DataType.VARCHAR), new Field("n", DataType.BIGINT),
            new Field("m", MONEY), new Field("dt", DataType.DATE), new Field("x", DataType.DOUBLE), new Field("b", DataType.BOOLEAN),
            new Field("i", DataType.INTEGER));
    private static final List<String> STRINGS = List.of("store", "catalog", "web", "", "\u00e9t\u00e9");

    @Test
    void theGpuAcceptsValuesAndTheCpuRunsThem() {
        try (ListSource source = randomSource(new RandomBatches(3), SCHEMA, 5, RandomBatches.Options.plain())) {
            for (PlanNode plan : plans(values(33, new Random(3)), source)) {
                assertAcceptedByGpu(plan);
                cpuRows(plan);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 31, 32, 33, 2049})
    void valuesMatchTheCpu(int rows) {
        GpuTests.assumeGpu();
        RandomBatches random = new RandomBatches(rows * 7L + 1);
        try (ListSource source = randomSource(random, SCHEMA, 100, RandomBatches.Options.plain().withNulls(0.2).withDistinct(5))) {
            for (PlanNode plan : plans(values(rows, new Random(rows)), source)) {
                assertSameOnGpu(plan, false, rows + " constant rows, seed " + random.seed() + ": " + plan.describe());
            }
        }
    }

    private static List<PlanNode> plans(ValuesNode values, ListSource source) {
        UnionNode union = new UnionNode(List.of(scan(source), values), SCHEMA);
        List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "c"),
                new AggCall(AggFunction.SUM, List.of(2), false, DataType.decimal(18, 2), "sm"));
        AggregateNode grouped = new AggregateNode(union, List.of(0), calls, Schema.of(SCHEMA.field(0),
                new Field("c", DataType.BIGINT), new Field("sm", DataType.decimal(18, 2))));
        return List.of(values, union, grouped);
    }

    /** {@code rows} random constant rows (a fifth of the values NULL, strings from a few). */
    private static ValuesNode values(int rows, Random random) {
        List<List<Literal>> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            List<Literal> row = new ArrayList<>();
            for (Field f : SCHEMA.fields()) {
                row.add(random.nextInt(5) == 0 ? Literal.ofNull(f.type()) : new Literal(value(f.type(), random), f.type()));
            }
            out.add(row);
        }
        return new ValuesNode(SCHEMA, out);
    }

    private static Object value(DataType type, Random random) {
        return switch (type.kind()) {
            case VARCHAR, CHAR -> STRINGS.get(random.nextInt(STRINGS.size()));
            case BOOLEAN -> random.nextBoolean();
            case DOUBLE -> random.nextInt(1000) / 4.0;
            case INTEGER, DATE -> (long) random.nextInt(20_000) - 10_000;
            default -> random.nextLong() % 1_000_000_000L;
        };
    }
}
