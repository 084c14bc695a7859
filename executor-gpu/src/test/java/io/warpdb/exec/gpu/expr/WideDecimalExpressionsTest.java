package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DECIMALs of more than 18 digits in filters and projections (the interpreter's 128-bit
 * instructions, vm.cuh vmWideStep), against the CPU's WideDecimalArithmeticEvaluator,
 * WideDecimalCastEvaluator and ComparisonEvaluator: columns copied in and out (NULLs included),
 * compared with each other, with narrow exact numbers and integers at other scales, with
 * constants and DOUBLEs; CASTs between wide and narrow DECIMALs, integers, DOUBLE and REAL;
 * NEGATE, ABS, CASE and COALESCE; ADD, SUBTRACT and MULTIPLY exact, 22003 past 38 digits or
 * 128 bits as on the CPU. At the harness's sizes, with NULLs, duplicates and the limits
 * ±(10^p - 1). Placement is checked without a device.
 */
class WideDecimalExpressionsTest extends GpuTestBase {
    private static final DataType WIDE = DataType.decimal(38, 2);
    private static final DataType FINE = DataType.decimal(30, 10);
    private static final DataType HALF = DataType.decimal(19, 4);
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final Schema SCHEMA = Schema.of(new Field("w", WIDE), new Field("f", FINE), new Field("h", HALF),
            new Field("m", MONEY), new Field("i", DataType.INTEGER), new Field("b", DataType.BIGINT), new Field("x", DataType.DOUBLE));
    private static final ColumnRef W = new ColumnRef(0, WIDE);
    private static final ColumnRef F = new ColumnRef(1, FINE);
    private static final ColumnRef H = new ColumnRef(2, HALF);
    private static final ColumnRef M = new ColumnRef(3, MONEY);
    private static final ColumnRef I = new ColumnRef(4, DataType.INTEGER);
    private static final ColumnRef B = new ColumnRef(5, DataType.BIGINT);
    private static final ColumnRef X = new ColumnRef(6, DataType.DOUBLE);

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    private static Expr call(Op op, DataType type, Expr... args) {
        return Call.of(op, type, args);
    }

    private static Expr cast(Expr e, DataType type) {
        return call(Op.CAST, type, e);
    }

    private static Expr compare(Op op, Expr a, Expr b) {
        return call(op, DataType.BOOLEAN, a, b);
    }

    private static Literal wide(String unscaled, DataType type) {
        return new Literal(new BigInteger(unscaled), type);
    }

    static List<Expr> values() {
        return List.of(
                cast(W, DataType.decimal(20, 0)), cast(W, DataType.decimal(38, 6)), cast(F, WIDE), cast(M, WIDE),
                cast(I, DataType.decimal(25, 3)), cast(B, DataType.decimal(19, 0)),
                cast(W, DataType.BIGINT), cast(H, DataType.INTEGER), cast(H, DataType.decimal(18, 3)), cast(F, MONEY),
                cast(W, DataType.DOUBLE), cast(F, DataType.DOUBLE), cast(H, DataType.REAL),
                call(Op.NEGATE, WIDE, W), call(Op.NEGATE, FINE, F), call(Op.ABS, FINE, F), call(Op.ABS, WIDE, W),
                call(Op.CASE, WIDE, compare(Op.GT, M, Literal.ofLong(0, MONEY)), W, call(Op.NEGATE, WIDE, W)),
                call(Op.CASE, FINE, compare(Op.LT, W, F), F, cast(H, FINE)),
                call(Op.COALESCE, WIDE, W, cast(M, WIDE), wide("-99999999999999999999999", WIDE)),
                call(Op.ADD, WIDE, W, M), call(Op.SUBTRACT, DataType.decimal(38, 10), F, W), call(Op.ADD, DataType.decimal(38, 4), H, I),
                call(Op.SUBTRACT, FINE, F, wide("12345678901234567890123", FINE)),
                call(Op.MULTIPLY, DataType.decimal(38, 8), H, H), call(Op.MULTIPLY, DataType.decimal(38, 6), H, M),
                call(Op.MULTIPLY, DataType.decimal(38, 2), H, M), call(Op.MULTIPLY, WIDE, W, I),
                call(Op.MULTIPLY, DataType.decimal(38, 12), W, F), call(Op.MULTIPLY, DataType.decimal(18, 6), H, M),
                call(Op.DIVIDE, DataType.DOUBLE, W, M), call(Op.ADD, DataType.DOUBLE, F, X));
    }

    static List<Expr> predicates() {
        return List.of(compare(Op.GT, W, M), compare(Op.EQ, W, F), compare(Op.LE, F, H), compare(Op.GE, H, I),
                compare(Op.LT, B, W), compare(Op.NE, W, wide("100000000000000000000000000000", WIDE)),
                compare(Op.GT, F, Literal.ofLong(-5, DataType.INTEGER)), compare(Op.LT, W, X),
                compare(Op.IS_DISTINCT_FROM, W, F), compare(Op.IS_NOT_DISTINCT_FROM, H, cast(M, HALF)),
                call(Op.IN, DataType.BOOLEAN, W, wide("0", WIDE), wide("-99999999999999999999999999999999999999", WIDE), M),
                call(Op.IS_NULL, DataType.BOOLEAN, call(Op.ADD, WIDE, W, W)),
                call(Op.AND, DataType.BOOLEAN, compare(Op.GT, H, Literal.ofLong(0, MONEY)),
                        compare(Op.LT, call(Op.MULTIPLY, DataType.decimal(38, 12), W, F), wide("1", DataType.decimal(38, 12)))));
    }

    @Test
    void filtersAndProjectionsOfWideDecimalsRunOnTheGpu() {
        try (ListSource source = randomSource(new RandomBatches(7), SCHEMA, 40, RandomBatches.Options.plain().withNulls(0.2))) {
            for (PlanNode plan : plans(source)) {
                assertAcceptedByGpu(plan);
                try {
                    cpuRows(plan);
                } catch (WarpException e) {
                    assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE.code(), e.sqlState(), plan.describe() + ": " + e.getMessage());
                }
            }
        }
        List<DataType> types = SCHEMA.fields().stream().map(Field::type).toList();
        assertThrows(Unsupported.class, () -> ProgramCompiler.check(types, List.of(cast(X, WIDE))));
        assertThrows(Unsupported.class, () -> ProgramCompiler.check(types, List.of(call(Op.ROUND, WIDE, W))));
        assertThrows(Unsupported.class, () -> ProgramCompiler.check(types, List.of(call(Op.MOD, WIDE, W, M))));
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void wideDecimalExpressionsMatchTheCpu(int rows) {
        assertPlansSameOnGpu(SCHEMA, rows, rows * 41L + 3, List.of(RandomBatches.Options.plain().withNulls(0.2).withDistinct(60),
                RandomBatches.Options.plain(), RandomBatches.Options.plain().withNulls(0.1).withExtremes()),
                WideDecimalExpressionsTest::plans);
    }

    private static List<PlanNode> plans(ListSource source) {
        List<PlanNode> plans = new ArrayList<>(projections(source, values()));
        for (Expr p : predicates()) {
            plans.add(new FilterNode(scan(source), p));
        }
        // Wide columns moved as they are: kept by a filter, and shared or reordered by a projection.
        plans.add(new ProjectNode(new FilterNode(scan(source), compare(Op.GT, M, Literal.ofLong(0, MONEY))), List.of(F, W, M),
                Schema.of(new Field("f", FINE), new Field("w", WIDE), new Field("m", MONEY))));
        plans.add(new ProjectNode(scan(source), List.of(W, call(Op.NEGATE, FINE, F)), Schema.of(new Field("w", WIDE), new Field("n", FINE))));
        return plans;
    }
}
