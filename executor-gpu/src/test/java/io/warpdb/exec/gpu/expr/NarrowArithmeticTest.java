package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SMALLINT, TINYINT and REAL results of arithmetic and CASTs in the GPU interpreter (CHECK_BITS to
 * the type's bits, ROUND_FLOAT to float32 with CAST's 22003 past REAL's range) and FLOOR, CEIL and
 * SIGN of DOUBLEs typed as exact numbers, against the CPU's arithmetic evaluators, CastEvaluator and
 * MathFunctionEvaluator, at the harness's sizes with NULLs and, in a second round, extremes (the
 * narrow types' limits overflow, infinities and NaN). Each expression can fail with one SQLSTATE
 * only and has a projection of its own. Placement is checked without a device.
 */
class NarrowArithmeticTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("s", DataType.SMALLINT), new Field("t", DataType.TINYINT),
            new Field("r", DataType.REAL), new Field("i", DataType.INTEGER), new Field("m", DataType.decimal(4, 1)),
            new Field("x", DataType.DOUBLE));
    private static final ColumnRef S = new ColumnRef(0, DataType.SMALLINT);
    private static final ColumnRef T = new ColumnRef(1, DataType.TINYINT);
    private static final ColumnRef R = new ColumnRef(2, DataType.REAL);
    private static final ColumnRef I = new ColumnRef(3, DataType.INTEGER);
    private static final ColumnRef M = new ColumnRef(4, DataType.decimal(4, 1));
    private static final ColumnRef X = new ColumnRef(5, DataType.DOUBLE);

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    static List<Expr> expressions() {
        return List.of(Call.of(Op.ADD, DataType.SMALLINT, S, S),
                Call.of(Op.SUBTRACT, DataType.SMALLINT, S, T),
                Call.of(Op.MULTIPLY, DataType.TINYINT, T, T),
                Call.of(Op.DIVIDE, DataType.SMALLINT, S, Literal.ofLong(3, DataType.TINYINT)),
                Call.of(Op.MOD, DataType.TINYINT, T, Literal.ofLong(7, DataType.TINYINT)),
                Call.of(Op.NEGATE, DataType.TINYINT, T),
                Call.of(Op.CAST, DataType.SMALLINT, I),
                Call.of(Op.CAST, DataType.TINYINT, M),
                Call.of(Op.CAST, DataType.SMALLINT, T),
                Call.of(Op.CAST, DataType.TINYINT, X),
                Call.of(Op.CAST, DataType.REAL, X),
                Call.of(Op.CAST, DataType.REAL, M),
                Call.of(Op.CAST, DataType.REAL, I),
                Call.of(Op.CAST, DataType.REAL, Call.of(Op.MULTIPLY, DataType.DOUBLE, X, new Literal(1e40, DataType.DOUBLE))),
                Call.of(Op.ADD, DataType.REAL, R, R),
                Call.of(Op.MULTIPLY, DataType.REAL, R, I),
                Call.of(Op.SUBTRACT, DataType.REAL, X, R),
                Call.of(Op.DIVIDE, DataType.REAL, R, new Literal(3.0, DataType.REAL)),
                Call.of(Op.FLOOR, DataType.BIGINT, X),
                Call.of(Op.CEIL, DataType.INTEGER, X),
                Call.of(Op.SIGN, DataType.INTEGER, X));
    }

    @Test
    void theGpuAcceptsNarrowResultsAndTheCpuRunsThem() {
        try (ListSource source = randomSource(new RandomBatches(4), SCHEMA, 40, RandomBatches.Options.plain().withNulls(0.2))) {
            for (PlanNode plan : projections(source, expressions())) {
                assertAcceptedByGpu(plan);
                try {
                    cpuRows(plan);
                } catch (WarpException e) {
                    // Random narrow values overflow: the CPU ran the expression.
                    assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE.code(), e.sqlState(), plan.describe());
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void narrowResultsMatchTheCpu(int rows) {
        assertPlansSameOnGpu(SCHEMA, rows, rows * 19L + 7, List.of(RandomBatches.Options.plain().withNulls(0.2),
                RandomBatches.Options.plain().withNulls(0.1).withExtremes()), source -> projections(source, expressions()));
    }
}
