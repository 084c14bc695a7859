package io.warpdb.exec.cpu.expr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArithmeticTest extends ExecTestBase {
    private final TestTable numbers = TestTable.of("t", "i", INT, "b", BIGINT, "d", dec(15, 2), "x", DOUBLE)
            .batch(row(7, 10L, bd("2.50"), 1.5), row(-7, -3L, bd("-0.05"), -2.0))
            .batch()
            .batch(row(null, 4L, null, 0.25));

    @Test
    void integerArithmeticKeepsIntegerTypesAndNulls() {
        assertEquals(Arrays.asList(17L, -10L, null), eval(numbers, call(Op.ADD, BIGINT, col(0, INT), col(1, BIGINT))));
        assertEquals(Arrays.asList(-3, 11, null), eval(numbers, call(Op.SUBTRACT, INT, lit(4), col(0, INT))));
        assertEquals(Arrays.asList(70L, 21L, null), eval(numbers, call(Op.MULTIPLY, BIGINT, col(0, INT), col(1, BIGINT))));
    }

    @Test
    void aSubexpressionRepeatedAmongCompiledTogetherExpressionsIsComputedOnce() {
        Expr product = call(Op.MULTIPLY, BIGINT, col(0, BIGINT), col(1, BIGINT));
        Expr plusOne = call(Op.ADD, BIGINT, product, lit(1L));
        List<Evaluator> evaluators = ExprCompiler.compileAll(List.of(product, plusOne, product), List.of(BIGINT, BIGINT, BIGINT));
        EvalInput input = new ColumnsInput(3, Column.ofLongs(BIGINT, new long[] {2, 3, -4}, null),
                Column.ofLongs(BIGINT, new long[] {5, 0, 6}, null));
        Column first = evaluators.get(0).evaluate(input);
        assertArrayEquals(new long[] {10, 0, -24}, first.longs());
        assertArrayEquals(new long[] {11, 1, -23}, evaluators.get(1).evaluate(input).longs());
        assertSame(first, evaluators.get(2).evaluate(input));
        // A new input is a new batch: the shared column is computed again.
        EvalInput next = new ColumnsInput(1, Column.ofLongs(BIGINT, new long[] {7}, null), Column.ofLongs(BIGINT, new long[] {7}, null));
        assertArrayEquals(new long[] {49}, evaluators.get(2).evaluate(next).longs());
    }

    @Test
    void integerDivisionTruncatesTowardZeroAndModKeepsTheDividendSign() {
        assertEquals(Arrays.asList(3, -3, null), eval(numbers, call(Op.DIVIDE, INT, col(0, INT), lit(2))));
        assertEquals(Arrays.asList(1, -1, null), eval(numbers, call(Op.MOD, INT, col(0, INT), lit(3))));
        assertEquals(Arrays.asList(1, -1, null), eval(numbers, call(Op.MOD, INT, col(0, INT), lit(-3))));
    }

    @Test
    void decimalAdditionAlignsScalesExactly() {
        // INTEGER + DECIMAL(15,2): the integer is DECIMAL scale 0, brought to scale 2.
        assertEquals(Arrays.asList(bd("9.50"), bd("-7.05"), null),
                eval(numbers, call(Op.ADD, dec(16, 2), col(0, INT), col(2, dec(15, 2)))));
        assertEquals(Arrays.asList(bd("0.000"), bd("2.550"), null),
                eval(numbers, call(Op.SUBTRACT, dec(16, 3), dec("2.500"), col(2, dec(15, 2)))));
    }

    @Test
    void resultTypedWithMoreFractionDigitsThanComputedIsScaledUp() {
        assertEquals(Arrays.asList(bd("3.500"), bd("0.950"), null),
                eval(numbers, call(Op.ADD, dec(18, 3), col(2, dec(15, 2)), lit(1))));
        assertEquals(Arrays.asList(bd("5.0000"), bd("-0.1000"), null),
                eval(numbers, call(Op.MULTIPLY, dec(18, 4), col(2, dec(15, 2)), lit(2))));
    }

    @Test
    void decimalMultiplicationIsExactOrRoundedHalfUpToTheResultScale() {
        // 2.50 * 2.50 = 6.2500 exactly at scale 4; rounded half up at scale 1: 6.3; -0.05 * 2.50 = -0.1250 -> -0.13
        assertEquals(Arrays.asList(bd("6.2500"), bd("-0.1250"), null),
                eval(numbers, call(Op.MULTIPLY, dec(18, 4), col(2, dec(15, 2)), dec("2.50"))));
        assertEquals(Arrays.asList(bd("6.3"), bd("-0.1"), null),
                eval(numbers, call(Op.MULTIPLY, dec(18, 1), col(2, dec(15, 2)), dec("2.50"))));
        assertEquals(Arrays.asList(bd("6.25"), bd("-0.13"), null),
                eval(numbers, call(Op.MULTIPLY, dec(18, 2), col(2, dec(15, 2)), dec("2.50"))));
    }

    @Test
    void decimalProductBeyond64BitsIsRoundedBackIntoRange() {
        // The exact products (scale 18 and 21) do not fit 64 bits; rounded to the result scale they do.
        assertEquals(bd("81.000000"), evalConstant(call(Op.MULTIPLY, dec(18, 6), dec("9.000000000"), dec("9.000000000"))));
        assertEquals(bd("12345678.90123457"),
                evalConstant(call(Op.MULTIPLY, dec(18, 8), dec("1234567.890123456789"), dec("10.000000000"))));
    }

    @Test
    void decimalDivisionRoundsHalfUpToTheResultScale() {
        assertEquals(bd("0.67"), evalConstant(call(Op.DIVIDE, dec(18, 2), dec("2.00"), dec("3.00"))));
        assertEquals(bd("-0.67"), evalConstant(call(Op.DIVIDE, dec(18, 2), dec("-2.00"), dec("3"))));
        assertEquals(bd("0.333333"), evalConstant(call(Op.DIVIDE, dec(18, 6), lit(1), lit(3))));
        assertEquals(bd("2.5"), evalConstant(call(Op.DIVIDE, dec(18, 1), lit(5), lit(2))));
        assertEquals(bd("0.13"), evalConstant(call(Op.DIVIDE, dec(18, 2), dec("0.125"), lit(1))));
        // Result typed BIGINT: truncation toward zero.
        assertEquals(-2L, evalConstant(call(Op.DIVIDE, BIGINT, dec("-5.9"), dec("2.0"))));
    }

    @Test
    void decimalModAndMixedComparisonScales() {
        assertEquals(bd("1.5"), evalConstant(call(Op.MOD, dec(18, 1), dec("7.5"), lit(3))));
        assertEquals(bd("-0.25"), evalConstant(call(Op.MOD, dec(18, 2), dec("-2.25"), dec("0.5"))));
    }

    @Test
    void doubleArithmeticMixesWithExactNumbers() {
        assertEquals(Arrays.asList(4.0, -2.05, null), eval(numbers, call(Op.ADD, DOUBLE, col(3, DOUBLE), col(2, dec(15, 2)))));
        assertEquals(Arrays.asList(4.666666666666667, 3.5, null), eval(numbers, call(Op.DIVIDE, DOUBLE, col(0, INT), col(3, DOUBLE))));
        // A DOUBLE computation typed DECIMAL is converted with HALF_UP.
        assertEquals(bd("0.29"), evalConstant(call(Op.MULTIPLY, dec(10, 2), dbl(0.285), lit(1))));
    }

    @Test
    void divisionByZeroRaises22012ForEveryNumericType() {
        evalConstantFailing(call(Op.DIVIDE, INT, lit(1), lit(0)), SqlState.DIVISION_BY_ZERO);
        evalConstantFailing(call(Op.DIVIDE, dec(18, 2), dec("1.00"), dec("0.00")), SqlState.DIVISION_BY_ZERO);
        evalConstantFailing(call(Op.DIVIDE, DOUBLE, dbl(1), dbl(0)), SqlState.DIVISION_BY_ZERO);
        evalConstantFailing(call(Op.MOD, INT, lit(1), lit(0)), SqlState.DIVISION_BY_ZERO);
        evalConstantFailing(call(Op.MOD, DOUBLE, dbl(1), dbl(0)), SqlState.DIVISION_BY_ZERO);
        evalConstantFailing(call(Op.MOD, dec(18, 2), dec("1.00"), dec("0.000")), SqlState.DIVISION_BY_ZERO);
    }

    /** Calls over constants are computed once and repeated; an empty input computes nothing (so 1 / 0 raises nothing). */
    @Test
    void constantCallsAreComputedOnceForEveryRow() {
        assertEquals(Arrays.asList(bd("0.05"), bd("0.05"), bd("0.05")),
                eval(numbers, call(Op.SUBTRACT, dec(15, 2), dec("0.06"), dec("0.01"))));
        assertEquals(Arrays.asList(false, true, null), eval(numbers,
                call(Op.LT, BOOL, col(0, INT), call(Op.ADD, INT, lit(2), call(Op.MULTIPLY, INT, lit(4), lit(1))))));
        TestTable empty = TestTable.of("t", "i", INT).batch();
        assertEquals(List.of(), eval(empty, call(Op.ADD, INT, col(0, INT), call(Op.DIVIDE, INT, lit(1), lit(0)))));
        TestTable one = TestTable.of("t", "i", INT).batch(row(5));
        WarpException e = assertThrows(WarpException.class,
                () -> eval(one, call(Op.ADD, INT, col(0, INT), call(Op.DIVIDE, INT, lit(1), lit(0)))));
        assertEquals(SqlState.DIVISION_BY_ZERO, e.state());
    }

    @Test
    void divisionByZeroOnANullRowIsNotAnError() {
        TestTable t = TestTable.of("t", "a", INT, "b", INT).batch(row(1, null), row(null, 0));
        assertEquals(Arrays.asList(null, null), eval(t, call(Op.DIVIDE, INT, col(0, INT), col(1, INT))));
    }

    @Test
    void overflowRaises22003InsteadOfWrappingAround() {
        evalConstantFailing(call(Op.ADD, INT, lit(Integer.MAX_VALUE), lit(1)), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        evalConstantFailing(call(Op.ADD, BIGINT, bigint(Long.MAX_VALUE), lit(1)), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        evalConstantFailing(call(Op.SUBTRACT, BIGINT, bigint(Long.MIN_VALUE), lit(1)), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        evalConstantFailing(call(Op.MULTIPLY, BIGINT, bigint(Long.MAX_VALUE / 2), lit(3)), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        evalConstantFailing(call(Op.MULTIPLY, dec(18, 2), dec("99999999999999.99"), dec("99999999999999.99")),
                SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        evalConstantFailing(call(Op.NEGATE, BIGINT, bigint(Long.MIN_VALUE)), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        evalConstantFailing(call(Op.DIVIDE, BIGINT, bigint(Long.MIN_VALUE), lit(-1)), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
    }

    @Test
    void mathFunctions() {
        assertEquals(Arrays.asList(-7, 7, null), eval(numbers, call(Op.NEGATE, INT, col(0, INT))));
        assertEquals(Arrays.asList(bd("2.50"), bd("0.05"), null), eval(numbers, call(Op.ABS, dec(15, 2), col(2, dec(15, 2)))));
        assertEquals(Arrays.asList(bd("2"), bd("-1"), null), eval(numbers, call(Op.FLOOR, dec(15, 0), col(2, dec(15, 2)))));
        assertEquals(Arrays.asList(bd("3"), bd("0"), null), eval(numbers, call(Op.CEIL, dec(15, 0), col(2, dec(15, 2)))));
        assertEquals(Arrays.asList(bd("2.50"), bd("-0.10"), null), eval(numbers, call(Op.ROUND, dec(15, 2), col(2, dec(15, 2)), lit(1))));
        assertEquals(Arrays.asList(1.0, -2.0, 0.0), eval(numbers, call(Op.FLOOR, DOUBLE, col(3, DOUBLE))));
        assertEquals(Arrays.asList(2.0, -2.0, 1.0), eval(numbers, call(Op.CEIL, DOUBLE, col(3, DOUBLE))));
        assertEquals(1300L, evalConstant(call(Op.ROUND, BIGINT, bigint(1250), lit(-2))));
        assertEquals(-1200L, evalConstant(call(Op.ROUND, BIGINT, bigint(-1249), lit(-2))));
        assertEquals(-3.0, evalConstant(call(Op.ROUND, DOUBLE, dbl(-2.5), lit(0))));
        assertEquals(2.68, evalConstant(call(Op.ROUND, DOUBLE, dbl(2.675), lit(2))));
        assertEquals(0.0, evalConstant(call(Op.ROUND, DOUBLE, dbl(0.49999999999999994), lit(0))));
        // FLOOR of a DOUBLE typed as BIGINT is converted after flooring.
        assertEquals(-2L, evalConstant(call(Op.FLOOR, BIGINT, dbl(-1.5))));
    }
}
