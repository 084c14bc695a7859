package io.warpdb.exec.gpu.expr;

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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ABS, ROUND, FLOOR, CEIL, SIGN, TRUNC on the GPU (the interpreter's ABS_I, ABS_F, ROUND_F,
 * ROUND_I, SIGN_I, MATH_F and exact rounding by RESCALE and SCALE_UP) against the CPU's
 * MathFunctionEvaluator, and SQRT, EXP, LN, LOG10, POWER (MATH_F, POW_F) against its
 * DoubleFunctionEvaluator: every numeric type, ROUND and TRUNC to
 * positive, zero and negative digits and to a result type other than the argument's, at the
 * harness's sizes with NULLs and, in a second round, extremes (ABS of the most negative BIGINT
 * overflows, ROUND of the largest decimals overflows, infinities and NaN pass through): where the
 * CPU fails with a SQLSTATE the GPU must fail alike. Placement is checked without a device.
 */
class MathFunctionsTest extends GpuTestBase {
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final DataType WIDE = DataType.decimal(18, 4);
    private static final Schema SCHEMA = Schema.of(new Field("a", DataType.BIGINT), new Field("i", DataType.INTEGER),
            new Field("m", MONEY), new Field("w", WIDE), new Field("x", DataType.DOUBLE));
    private static final ColumnRef A = new ColumnRef(0, DataType.BIGINT);
    private static final ColumnRef I = new ColumnRef(1, DataType.INTEGER);
    private static final ColumnRef M = new ColumnRef(2, MONEY);
    private static final ColumnRef W = new ColumnRef(3, WIDE);
    private static final ColumnRef X = new ColumnRef(4, DataType.DOUBLE);

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    /** Each function alone in a projection, so that an overflow of one does not hide the others' results. */
    static List<Expr> functions() {
        List<Expr> out = new ArrayList<>();
        out.add(abs(A, DataType.BIGINT));
        out.add(abs(I, DataType.INTEGER));
        out.add(abs(M, MONEY));
        out.add(abs(W, WIDE));
        out.add(abs(X, DataType.DOUBLE));
        out.add(abs(Call.of(Op.SUBTRACT, MONEY, M, Literal.ofLong(5000, MONEY)), MONEY));
        for (int digits : new int[] {-3, -1, 0, 1, 2, 5}) {
            out.add(round(M, digits, MONEY));
            out.add(round(W, digits, WIDE));
            out.add(round(X, digits, DataType.DOUBLE));
            out.add(round(A, digits, DataType.BIGINT));
        }
        out.add(Call.of(Op.ROUND, MONEY, M));
        out.add(Call.of(Op.ROUND, DataType.decimal(12, 0), M, Literal.ofLong(0, DataType.INTEGER)));
        out.add(Call.of(Op.ROUND, DataType.INTEGER, I));
        out.add(Call.of(Op.ROUND, DataType.DOUBLE, W, Literal.ofLong(2, DataType.INTEGER)));
        out.add(Call.of(Op.ROUND, DataType.decimal(18, 2), X, Literal.ofLong(2, DataType.INTEGER)));
        for (Op op : List.of(Op.FLOOR, Op.CEIL, Op.SIGN)) {
            out.add(Call.of(op, op == Op.SIGN ? MONEY : DataType.decimal(12, 0), M));
            out.add(Call.of(op, op == Op.SIGN ? WIDE : DataType.decimal(18, 0), W));
            out.add(Call.of(op, DataType.BIGINT, A));
            out.add(Call.of(op, DataType.INTEGER, I));
            out.add(Call.of(op, DataType.DOUBLE, X));
            out.add(Call.of(op, DataType.DOUBLE, M));
        }
        for (int digits : new int[] {-2, 0, 1, 3}) {
            out.add(Call.of(Op.TRUNC, MONEY, M, Literal.ofLong(digits, DataType.INTEGER)));
            out.add(Call.of(Op.TRUNC, WIDE, W, Literal.ofLong(digits, DataType.INTEGER)));
            out.add(Call.of(Op.TRUNC, DataType.BIGINT, A, Literal.ofLong(digits, DataType.INTEGER)));
        }
        out.add(Call.of(Op.TRUNC, DataType.DOUBLE, X));
        for (Op op : List.of(Op.SQRT, Op.EXP, Op.LN, Op.LOG10)) {
            out.add(Call.of(op, DataType.DOUBLE, X));
            out.add(Call.of(op, DataType.DOUBLE, Call.of(Op.CAST, DataType.DOUBLE, M)));
        }
        out.add(Call.of(Op.POWER, DataType.DOUBLE, X, new Literal(2.0, DataType.DOUBLE)));
        out.add(Call.of(Op.POWER, DataType.DOUBLE, X, Call.of(Op.CAST, DataType.DOUBLE, I)));
        out.add(Call.of(Op.POWER, DataType.DOUBLE, new Literal(1.0, DataType.DOUBLE), X));
        // TPC-DS q02 / q78: ROUND of a quotient.
        out.add(round(Call.of(Op.DIVIDE, DataType.decimal(18, 6), M, Literal.ofLong(700, MONEY)), 2, DataType.decimal(18, 6)));
        return out;
    }

    @Test
    void theGpuAcceptsAbsAndRoundAndTheCpuRunsThem() {
        try (ListSource source = randomSource(new RandomBatches(2), SCHEMA, 40, RandomBatches.Options.plain().withNulls(0.2))) {
            for (PlanNode plan : plans(source)) {
                assertAcceptedByGpu(plan);
                cpuRows(plan);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void absAndRoundMatchTheCpu(int rows) {
        assertPlansSameOnGpu(SCHEMA, rows, rows * 13L + 3, List.of(RandomBatches.Options.plain().withNulls(0.2).withDistinct(40),
                RandomBatches.Options.plain().withNulls(0.1).withExtremes()), MathFunctionsTest::plans);
    }

    private static List<PlanNode> plans(ListSource source) {
        List<PlanNode> plans = new ArrayList<>(projections(source, functions()));
        // TPC-DS q47: ABS in a filter.
        plans.add(new FilterNode(scan(source), Call.of(Op.GT, DataType.BOOLEAN,
                Call.of(Op.DIVIDE, DataType.decimal(18, 6), abs(Call.of(Op.SUBTRACT, MONEY, M, Literal.ofLong(4000, MONEY)), MONEY),
                        Literal.ofLong(300, MONEY)),
                Literal.ofLong(1, DataType.decimal(2, 1)))));
        return plans;
    }

    private static Expr abs(Expr x, DataType type) {
        return Call.of(Op.ABS, type, x);
    }

    private static Expr round(Expr x, int digits, DataType type) {
        return Call.of(Op.ROUND, type, x, Literal.ofLong(digits, DataType.INTEGER));
    }
}
