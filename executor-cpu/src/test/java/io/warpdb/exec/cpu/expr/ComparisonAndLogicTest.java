package io.warpdb.exec.cpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonAndLogicTest extends ExecTestBase {
    /** Every combination of two three-valued booleans, in two batches. */
    private final TestTable truth = TestTable.of("t", "a", BOOL, "b", BOOL)
            .batch(row(true, true), row(true, false), row(true, null), row(false, true), row(false, false))
            .batch(row(false, null), row(null, true), row(null, false), row(null, null));

    private List<Object> logic(Op op) {
        return eval(truth, call(op, BOOL, col(0, BOOL), col(1, BOOL)));
    }

    @Test
    void andOrFollowThreeValuedLogic() {
        assertEquals(Arrays.asList(true, false, null, false, false, false, null, false, null), logic(Op.AND));
        assertEquals(Arrays.asList(true, true, true, true, false, null, true, null, null), logic(Op.OR));
    }

    @Test
    void unaryBooleanTests() {
        Expr a = col(0, BOOL);
        assertEquals(Arrays.asList(false, false, false, true, true, true, null, null, null), eval(truth, call(Op.NOT, BOOL, a)));
        assertEquals(Arrays.asList(false, false, false, false, false, false, true, true, true), eval(truth, call(Op.IS_NULL, BOOL, a)));
        assertEquals(Arrays.asList(true, true, true, true, true, true, false, false, false), eval(truth, call(Op.IS_NOT_NULL, BOOL, a)));
        assertEquals(Arrays.asList(true, true, true, false, false, false, false, false, false), eval(truth, call(Op.IS_TRUE, BOOL, a)));
        assertEquals(Arrays.asList(false, false, false, true, true, true, true, true, true), eval(truth, call(Op.IS_NOT_TRUE, BOOL, a)));
        assertEquals(Arrays.asList(false, false, false, true, true, true, false, false, false), eval(truth, call(Op.IS_FALSE, BOOL, a)));
        assertEquals(Arrays.asList(true, true, true, false, false, false, true, true, true), eval(truth, call(Op.IS_NOT_FALSE, BOOL, a)));
    }

    @Test
    void nullTestsApplyToEveryType() {
        TestTable t = TestTable.of("t", "s", VARCHAR, "x", DOUBLE, "d", dec(5, 1)).batch(row("a", null, bd("1.0")), row(null, 2.0, null));
        assertEquals(Arrays.asList(false, true), eval(t, call(Op.IS_NULL, BOOL, col(0, VARCHAR))));
        assertEquals(Arrays.asList(false, true), eval(t, call(Op.IS_NOT_NULL, BOOL, col(1, DOUBLE))));
        assertEquals(Arrays.asList(false, true), eval(t, call(Op.IS_NULL, BOOL, col(2, dec(5, 1)))));
    }

    @Test
    void rightSideOfAndOrIsNotEvaluatedWhereTheLeftDecides() {
        TestTable t = TestTable.of("t", "x", INT).batch(row(0), row(2), row((Object) null));
        Expr nonZero = call(Op.NE, BOOL, col(0, INT), lit(0));
        Expr quotientBig = call(Op.GT, BOOL, call(Op.DIVIDE, INT, lit(10), col(0, INT)), lit(1));
        assertEquals(Arrays.asList(false, true, null), eval(t, call(Op.AND, BOOL, nonZero, quotientBig)));
        Expr isZero = call(Op.EQ, BOOL, col(0, INT), lit(0));
        assertEquals(Arrays.asList(true, true, null), eval(t, call(Op.OR, BOOL, isZero, quotientBig)));
    }

    private final TestTable mixed = TestTable.of("t", "i", INT, "d", dec(15, 2), "x", DOUBLE, "day", DATE, "s", VARCHAR)
            .batch(row(1, bd("1.00"), 1.0, date("1995-03-15"), "b"), row(2, bd("1.99"), 2.5, date("1994-12-31"), "a"))
            .batch(row(null, null, null, null, null));

    @Test
    void comparisonsMixNumericTypesExactly() {
        assertEquals(Arrays.asList(true, false, null), eval(mixed, call(Op.EQ, BOOL, col(0, INT), col(1, dec(15, 2)))));
        assertEquals(Arrays.asList(false, true, null), eval(mixed, call(Op.GT, BOOL, col(0, INT), col(1, dec(15, 2)))));
        assertEquals(Arrays.asList(true, true, null), eval(mixed, call(Op.LE, BOOL, col(1, dec(15, 2)), col(2, DOUBLE))));
        assertEquals(Arrays.asList(false, true, null), eval(mixed, call(Op.GE, BOOL, col(1, dec(15, 2)), dec("1.990"))));
        assertEquals(Arrays.asList(true, false, null), eval(mixed, call(Op.LT, BOOL, col(1, dec(15, 2)), dec("1.989"))));
        assertEquals(Arrays.asList(false, true, null), eval(mixed, call(Op.NE, BOOL, col(0, INT), dbl(1.0))));
        // A scale difference that overflows when rescaling still compares correctly.
        assertEquals(true, evalConstant(call(Op.GT, BOOL, bigint(Long.MAX_VALUE), dec("0.000000000001"))));
        assertEquals(true, evalConstant(call(Op.LT, BOOL, bigint(Long.MIN_VALUE), dec("-0.000000000001"))));
        assertEquals(true, evalConstant(call(Op.EQ, BOOL, dbl(0.0), dbl(-0.0))));
    }

    @Test
    void comparisonsOfDatesStringsAndBooleans() {
        assertEquals(Arrays.asList(true, false, null), eval(mixed, call(Op.GE, BOOL, col(3, DATE), dateLit("1995-01-01"))));
        assertEquals(Arrays.asList(true, false, null), eval(mixed, call(Op.GT, BOOL, col(4, VARCHAR), str("a"))));
        // A date compared with text: the text is cast to DATE.
        assertEquals(Arrays.asList(false, true, null), eval(mixed, call(Op.EQ, BOOL, col(3, DATE), str(" 1994-12-31 "))));
        assertEquals(true, evalConstant(call(Op.LT, BOOL, bool(false), bool(true))));
    }

    @Test
    void comparisonWithNullIsNullButDistinctFromIsNever() {
        assertEquals(Arrays.asList(null, null, null), eval(mixed, call(Op.EQ, BOOL, col(0, INT), nul(INT))));
        TestTable pairs = TestTable.of("t", "a", INT, "b", INT).batch(row(1, 1), row(1, 2), row(1, null), row(null, null));
        assertEquals(Arrays.asList(false, true, true, false),
                eval(pairs, call(Op.IS_DISTINCT_FROM, BOOL, col(0, INT), col(1, INT))));
        assertEquals(Arrays.asList(true, false, false, true),
                eval(pairs, call(Op.IS_NOT_DISTINCT_FROM, BOOL, col(0, INT), col(1, INT))));
    }

    @Test
    void caseTakesTheFirstTrueWhenAndEvaluatesBranchesOnlyOnTheirRows() {
        TestTable t = TestTable.of("t", "x", INT).batch(row(0), row(5), row((Object) null), row(-4));
        Expr x = col(0, INT);
        // CASE WHEN x = 0 THEN NULL WHEN x > 0 THEN 100 / x ELSE x END: no division by zero.
        Expr c = call(Op.CASE, INT, call(Op.EQ, BOOL, x, lit(0)), nul(INT),
                call(Op.GT, BOOL, x, lit(0)), call(Op.DIVIDE, INT, lit(100), x), x);
        assertEquals(Arrays.asList(null, 20, null, -4), eval(t, c));
        // A NULL condition is not TRUE; branches of another type are converted.
        Expr d = call(Op.CASE, dec(10, 1), call(Op.GT, BOOL, x, lit(-1)), x, dec("0.5"));
        assertEquals(Arrays.asList(bd("0.0"), bd("5.0"), bd("0.5"), bd("0.5")), eval(t, d));
        Expr s = call(Op.CASE, VARCHAR, call(Op.GT, BOOL, x, lit(0)), str("pos"), call(Op.LT, BOOL, x, lit(0)), str("neg"), nul(VARCHAR));
        assertEquals(Arrays.asList(null, "pos", null, "neg"), eval(t, s));
    }

    @Test
    void coalesceTakesTheFirstNonNull() {
        TestTable t = TestTable.of("t", "a", INT, "b", BIGINT).batch(row(1, 2L), row(null, 3L), row(null, null));
        assertEquals(Arrays.asList(1L, 3L, 0L), eval(t, call(Op.COALESCE, BIGINT, col(0, INT), col(1, BIGINT), bigint(0))));
        TestTable s = TestTable.of("t", "a", VARCHAR, "b", VARCHAR).batch(row("x", "y"), row(null, "z"), row(null, null))
                .nonUniqueDictionaries();
        assertEquals(Arrays.asList("x", "z", "-"), eval(s, call(Op.COALESCE, VARCHAR, col(0, VARCHAR), col(1, VARCHAR), str("-"))));
    }

    @Test
    void inFollowsNullSemantics() {
        TestTable t = TestTable.of("t", "x", INT, "d", dec(15, 2)).batch(row(1, bd("0.05")), row(2, bd("1.00")), row(null, null));
        Expr x = col(0, INT);
        assertEquals(Arrays.asList(true, false, null), eval(t, call(Op.IN, BOOL, x, lit(1), lit(3))));
        assertEquals(Arrays.asList(true, null, null), eval(t, call(Op.IN, BOOL, x, lit(1), nul(INT))));
        // Values of another scale: 0.050 matches 0.05; 1.001 can never match a DECIMAL(15,2).
        Expr d = col(1, dec(15, 2));
        assertEquals(Arrays.asList(true, false, null), eval(t, call(Op.IN, BOOL, d, dec("0.050"), dec("1.001"))));
        assertEquals(Arrays.asList(false, true, null), eval(t, call(Op.IN, BOOL, d, dbl(1.0))));
        // A non-constant value list becomes x = v1 OR x = v2.
        assertEquals(Arrays.asList(true, true, null), eval(t, call(Op.IN, BOOL, x, lit(1), call(Op.ADD, INT, lit(1), lit(1)))));
        List<Literal> days = List.of(dateLit("1995-03-15"));
        assertEquals(true, evalConstant(call(Op.IN, BOOL, dateLit("1995-03-15"), days.get(0), dateLit("2000-01-01"))));
    }
}
