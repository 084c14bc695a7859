package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which of the SQL functions the GPU interpreter takes: the string functions over one column run
 * per dictionary entry (on the host), the math functions in the interpreter (MATH_F, POW_F,
 * ROUND_I, SIGN_I), but TRUNC of a DOUBLE to digits, which stays on the CPU. Runs without a GPU.
 */
class FunctionSupportTest {
    private static final List<DataType> INPUT = List.of(DataType.VARCHAR, DataType.DOUBLE);
    private static final Expr TEXT = new ColumnRef(0, DataType.VARCHAR);
    private static final Expr NUMBER = new ColumnRef(1, DataType.DOUBLE);

    @Test
    void stringFunctionsRunPerDictionaryEntry() {
        for (Expr e : List.of(Call.of(Op.STRPOS, DataType.INTEGER, TEXT, Literal.ofString("a")),
                Call.of(Op.LPAD, DataType.VARCHAR, TEXT, Literal.ofLong(5, DataType.INTEGER), Literal.ofString("*")),
                Call.of(Op.REGEXP_MATCHES, DataType.BOOLEAN, TEXT, Literal.ofString("a+")),
                Call.of(Op.SPLIT_PART, DataType.VARCHAR, TEXT, Literal.ofString(","), Literal.ofLong(2, DataType.INTEGER)))) {
            assertDoesNotThrow(() -> ProgramCompiler.check(INPUT, List.of(e)), e.toString());
        }
    }

    @Test
    void mathFunctionsRunOnTheGpu() {
        for (Op op : List.of(Op.SQRT, Op.EXP, Op.LN, Op.LOG10, Op.FLOOR, Op.CEIL, Op.SIGN, Op.TRUNC)) {
            Expr e = Call.of(op, DataType.DOUBLE, NUMBER);
            assertDoesNotThrow(() -> ProgramCompiler.check(INPUT, List.of(e)), op.toString());
        }
        Expr power = Call.of(Op.POWER, DataType.DOUBLE, NUMBER, NUMBER);
        assertDoesNotThrow(() -> ProgramCompiler.check(INPUT, List.of(power)));
        Expr truncToDigits = Call.of(Op.TRUNC, DataType.DOUBLE, NUMBER, Literal.ofLong(2, DataType.INTEGER));
        assertThrows(Unsupported.class, () -> ProgramCompiler.check(INPUT, List.of(truncToDigits)));
    }
}
