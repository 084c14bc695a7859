package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
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
 * Comparisons of exact numbers of different scales (CMP_SCALED, DISTINCT_SCALED: exact in 128
 * bits, never an overflow, as the CPU's ComparisonEvaluator), also through Calcite's CASTs of
 * narrow values to DECIMALs of more than 18 digits ({@code 1.5 <= bigint_column} compares a
 * DECIMAL(20,1)), which the interpreter reads at the argument's scale, with the declared
 * precision's 22003 where the argument can exceed it, and such constants that fit 64 bits; and
 * CASTs of both back to 18 digits.
 * Against the CPU at the harness's sizes with NULLs and extremes (BIGINTs near 2^63, which the
 * former scaling to a common scale overflowed). Placement is checked without a device.
 */
class ScaledComparisonTest extends GpuTestBase {
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final DataType FINE = DataType.decimal(18, 4);
    private static final Schema SCHEMA = Schema.of(new Field("b", DataType.BIGINT), new Field("i", DataType.INTEGER),
            new Field("m", MONEY), new Field("w", FINE), new Field("x", DataType.DOUBLE));
    private static final ColumnRef B = new ColumnRef(0, DataType.BIGINT);
    private static final ColumnRef I = new ColumnRef(1, DataType.INTEGER);
    private static final ColumnRef M = new ColumnRef(2, MONEY);
    private static final ColumnRef W = new ColumnRef(3, FINE);
    private static final ColumnRef X = new ColumnRef(4, DataType.DOUBLE);

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    private static Expr widened(Expr e, int precision, int scale) {
        return Call.of(Op.CAST, DataType.decimal(precision, scale), e);
    }

    private static Expr compare(Op op, Expr a, Expr b) {
        return Call.of(op, DataType.BOOLEAN, a, b);
    }

    static List<Expr> predicates() {
        return List.of(compare(Op.LE, Literal.ofLong(15, DataType.decimal(2, 1)), widened(B, 20, 1)),
                compare(Op.LE, new Literal(BigInteger.valueOf(15), DataType.decimal(20, 1)), widened(B, 20, 1)),
                compare(Op.GT, B, M),
                compare(Op.LT, W, M),
                compare(Op.EQ, Call.of(Op.MULTIPLY, MONEY, M, Literal.ofLong(1, DataType.INTEGER)), widened(I, 22, 3)),
                compare(Op.IS_DISTINCT_FROM, M, W),
                compare(Op.IS_NOT_DISTINCT_FROM, widened(I, 22, 3), M),
                compare(Op.GE, widened(B, 20, 3), M),
                compare(Op.NE, widened(M, 38, 10), widened(W, 25, 4)),
                Call.of(Op.IN, DataType.BOOLEAN, widened(B, 20, 1), Literal.ofLong(15, DataType.decimal(2, 1)), Literal.ofLong(0, DataType.decimal(2, 1))));
    }

    static List<Expr> values() {
        List<Expr> out = new ArrayList<>(predicates());
        out.add(Call.of(Op.CAST, DataType.decimal(14, 1), widened(M, 25, 2)));
        out.add(Call.of(Op.CAST, DataType.BIGINT, widened(I, 19, 0)));
        out.add(Call.of(Op.CAST, DataType.decimal(15, 1), new Literal(BigInteger.valueOf(12_345_678_991L), DataType.decimal(20, 2))));
        return out;
    }

    @Test
    void theGpuAcceptsScaledComparisonsAndWideningsButNotComparedWithDoubles() {
        try (ListSource source = randomSource(new RandomBatches(5), SCHEMA, 40, RandomBatches.Options.plain().withNulls(0.2))) {
            for (PlanNode plan : plans(source)) {
                assertAcceptedByGpu(plan);
                cpuRows(plan);
            }
        }
        List<DataType> types = SCHEMA.fields().stream().map(Field::type).toList();
        ProgramCompiler.check(types, List.of(compare(Op.LT, I, B), compare(Op.IS_NOT_DISTINCT_FROM, B, I))); // one scale, two widths
        assertThrows(Unsupported.class, () -> ProgramCompiler.check(types, List.of(compare(Op.GT, widened(B, 20, 1), X))));
        // Read as a 128-bit value (WideDecimalExpressionsTest), not as a widening.
        ProgramCompiler.check(types, List.of(Call.of(Op.CAST, DataType.DOUBLE, widened(B, 20, 1)), widened(W, 20, 2)));
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void scaledComparisonsMatchTheCpu(int rows) {
        assertPlansSameOnGpu(SCHEMA, rows, rows * 23L + 11, List.of(RandomBatches.Options.plain().withNulls(0.2).withDistinct(50),
                RandomBatches.Options.plain().withNulls(0.1).withExtremes()), ScaledComparisonTest::plans);
    }

    private static List<PlanNode> plans(ListSource source) {
        List<PlanNode> plans = new ArrayList<>(projections(source, values()));
        for (Expr p : predicates()) {
            plans.add(new FilterNode(scan(source), p));
        }
        return plans;
    }
}
