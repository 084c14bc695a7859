package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerCheckerTest {
    private static ResultTable table(List<String> columns, Object[]... rows) {
        return new ResultTable(columns, Arrays.stream(rows).map(Arrays::asList).toList());
    }

    private static AnswerChecker.Verdict check(ResultTable expected, ResultTable actual, String... orderBy) {
        return AnswerChecker.check(expected, actual, List.of(orderBy));
    }

    @Test
    void integersOfAnyTypeAndDecimalsOfAnyScaleCompareNumerically() {
        assertTrue(AnswerChecker.same(2, 2L));
        assertTrue(AnswerChecker.same(BigInteger.valueOf(7), 7));
        assertTrue(AnswerChecker.same(new BigDecimal("2.00"), new BigDecimal("2.0000")));
        assertTrue(AnswerChecker.same(new BigDecimal("5.000"), 5L));
        assertFalse(AnswerChecker.same(new BigDecimal("2.01"), new BigDecimal("2.0100001")), "decimals are exact to the last digit");
        assertFalse(AnswerChecker.same(3, 4L));
    }

    @Test
    void doublesMatchWithinRelativeTolerance() {
        assertTrue(AnswerChecker.same(1e12, 1e12 * (1 + 5e-10)));
        assertFalse(AnswerChecker.same(1e12, 1e12 * (1 + 5e-9)));
        assertTrue(AnswerChecker.same(0.0, 0.0));
        assertFalse(AnswerChecker.same(0.0, 1e-300), "relative: nothing is close to zero but zero");
        assertTrue(AnswerChecker.same(25.5, new BigDecimal("25.50000000001")), "a double on either side makes it approximate");
        assertFalse(AnswerChecker.same(new BigDecimal("25.51"), 25.5));
    }

    @Test
    void stringsIgnoreTrailingSpacesOnly() {
        assertTrue(AnswerChecker.same("BUILDING  ", "BUILDING"));
        assertFalse(AnswerChecker.same(" BUILDING", "BUILDING"));
        assertFalse(AnswerChecker.same("1", 1), "a string is not a number");
    }

    @Test
    void datesCompareAsDates() {
        assertTrue(AnswerChecker.same(LocalDate.of(1995, 3, 15), java.sql.Date.valueOf("1995-03-15")));
        assertFalse(AnswerChecker.same(LocalDate.of(1995, 3, 15), java.sql.Date.valueOf("1995-03-16")));
        assertTrue(AnswerChecker.same(null, null));
        assertFalse(AnswerChecker.same(null, 0));
    }

    @Test
    void unorderedAnswersCompareAsMultisets() {
        ResultTable expected = table(List.of("k", "v"), new Object[] {1, "a"}, new Object[] {2, "b"}, new Object[] {2, "b"});
        assertTrue(check(expected, table(List.of("k", "v"), new Object[] {2L, "b"}, new Object[] {1L, "a"}, new Object[] {2L, "b"})).ok());
        AnswerChecker.Verdict v = check(expected, table(List.of("k", "v"), new Object[] {2, "b"}, new Object[] {1, "a"},
                new Object[] {1, "a"}));
        assertFalse(v.ok());
        assertEquals("column k expected 2 (Integer) but was 1 (Integer) in row [1, 'a'] (expected row [2, 'b'])", v.difference());
    }

    @Test
    void orderedAnswersMustFollowTheSortKeys() {
        List<String> columns = List.of("name", "revenue");
        ResultTable expected = table(columns, new Object[] {"x", new BigDecimal("9.00")}, new Object[] {"y", new BigDecimal("5.00")});
        ResultTable swapped = table(columns, new Object[] {"y", new BigDecimal("5.00")}, new Object[] {"x", new BigDecimal("9.00")});
        assertTrue(check(expected, swapped).ok(), "without ORDER BY the order is free");
        AnswerChecker.Verdict v = check(expected, swapped, "revenue");
        assertFalse(v.ok());
        assertEquals("row 1 is out of order or differs: column revenue expected 9.00 (BigDecimal) but was 5.00 (BigDecimal)",
                v.difference());
    }

    @Test
    void rowsThatTieOnTheSortKeysMayComeInAnyOrder() {
        List<String> columns = List.of("value", "partkey");
        ResultTable expected = table(columns, new Object[] {10, 1}, new Object[] {7, 2}, new Object[] {7, 3}, new Object[] {5, 4});
        ResultTable tiesSwapped = table(columns, new Object[] {10, 1}, new Object[] {7, 3}, new Object[] {7, 2}, new Object[] {5, 4});
        assertTrue(check(expected, tiesSwapped, "value").ok());
        assertFalse(check(expected, tiesSwapped, "value", "partkey").ok());
        ResultTable wrongTie = table(columns, new Object[] {10, 1}, new Object[] {7, 3}, new Object[] {7, 9}, new Object[] {5, 4});
        AnswerChecker.Verdict v = check(expected, wrongTie, "VALUE");
        assertFalse(v.ok());
        assertTrue(v.difference().startsWith("column partkey expected 2 (Integer) but was 3 (Integer)"), v.difference());
    }

    @Test
    void aLimitCutThroughTiesMayKeepAnyOfTheTiedRows() {
        List<String> columns = List.of("value", "partkey");
        ResultTable expected = table(columns, new Object[] {10, 1}, new Object[] {7, 2}, new Object[] {7, 3});
        ResultTable otherTiedRowKept = table(columns, new Object[] {10, 1}, new Object[] {7, 3}, new Object[] {7, 9});
        assertTrue(AnswerChecker.check(expected, otherTiedRowKept, new int[] {0}, true).ok());
        assertFalse(AnswerChecker.check(expected, otherTiedRowKept, new int[] {0}, false).ok());
        ResultTable wrongKey = table(columns, new Object[] {10, 1}, new Object[] {7, 3}, new Object[] {6, 9});
        assertFalse(AnswerChecker.check(expected, wrongKey, new int[] {0}, true).ok());
        ResultTable wrongEarlierGroup = table(columns, new Object[] {10, 5}, new Object[] {7, 2}, new Object[] {7, 3});
        assertFalse(AnswerChecker.check(expected, wrongEarlierGroup, new int[] {0}, true).ok());
    }

    @Test
    void rowCountAndColumnCountDifferencesAreNamed() {
        List<String> columns = List.of("a");
        AnswerChecker.Verdict rows = check(table(columns, new Object[] {1}, new Object[] {2}), table(columns, new Object[] {1}));
        assertEquals("expected 2 rows but got 1; missing row [2]", rows.difference());
        AnswerChecker.Verdict extra = check(table(columns), table(columns, new Object[] {"x"}));
        assertEquals("expected 0 rows but got 1; extra row ['x']", extra.difference());
        AnswerChecker.Verdict cols = check(table(columns), table(List.of("a", "b")));
        assertEquals("expected 1 columns [a] but got 2 [a, b]", cols.difference());
    }

    @Test
    void doubleNoiseDoesNotMisalignRows() {
        // Sorting by the exact column first keeps rows paired although the doubles sort differently.
        List<String> columns = List.of("avg", "name");
        ResultTable expected = table(columns, new Object[] {1.0, "b"}, new Object[] {1.0000000000001, "a"});
        ResultTable actual = table(columns, new Object[] {1.0000000000001, "b"}, new Object[] {1.0, "a"});
        assertTrue(check(expected, actual).ok());
    }

    @Test
    void unknownOrderByColumnIsAnError() {
        ResultTable t = table(List.of("a"), new Object[] {1});
        assertThrows(IllegalArgumentException.class, () -> check(t, t, "b"));
    }
}
