package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.warpdb.fuzz.QueryResult.ResultColumn;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultComparatorTest {
    private static final ResultColumn INTEGER = new ResultColumn("x", Types.INTEGER, "INTEGER", 0);
    private static final ResultColumn HUGEINT = new ResultColumn("x", Types.OTHER, "HUGEINT", 0);
    private static final ResultColumn DECIMAL = new ResultColumn("x", Types.DECIMAL, "DECIMAL", 2);
    private static final ResultColumn DOUBLE = new ResultColumn("x", Types.DOUBLE, "DOUBLE", 0);
    private static final ResultColumn CHAR = new ResultColumn("x", Types.CHAR, "CHAR", 0);
    private static final ResultColumn VARCHAR = new ResultColumn("x", Types.VARCHAR, "VARCHAR", 0);
    private static final ResultColumn DATE = new ResultColumn("x", Types.DATE, "DATE", 0);

    private static QueryResult result(ResultColumn column, Object... values) {
        return new QueryResult(List.of(column), Arrays.stream(values).map(v -> Arrays.asList(v)).toList());
    }

    @Test
    void exactNumbersCompareByValueWhateverTheirJavaType() {
        assertNull(ResultComparator.compare(result(HUGEINT, BigInteger.valueOf(7), new BigDecimal("2.00")),
                result(INTEGER, 2, 7L), false));
        assertEquals("sorted row 1: expected (2) but got (3)", ResultComparator.compare(result(INTEGER, 2), result(DECIMAL, 3), false));
    }

    @Test
    void doublesCompareWithinTheRelativeTolerance() {
        assertNull(ResultComparator.compare(result(DOUBLE, 0.1 + 0.2), result(DOUBLE, 0.3), false));
        assertNull(ResultComparator.compare(result(DOUBLE, 1e15), result(DOUBLE, 1e15 + 0.5), false));
        assertEquals("sorted row 1: expected (1.0) but got (1.001)", ResultComparator.compare(result(DOUBLE, 1.0),
                result(DOUBLE, 1.001), false));
        // An exact column against a DOUBLE one (CEIL of an INTEGER is DOUBLE in DuckDB).
        assertNull(ResultComparator.compare(result(DOUBLE, 3.0), result(INTEGER, 3), false));
    }

    @Test
    void charValuesLoseTheirPadSpacesVarcharValuesDoNot() {
        assertNull(ResultComparator.compare(result(VARCHAR, "ab"), result(CHAR, "ab   "), false));
        assertEquals("sorted row 1: expected (' ab') but got (' ab ')",
                ResultComparator.compare(result(VARCHAR, " ab"), result(VARCHAR, " ab "), false));
    }

    @Test
    void duckDbBcDatesReadAsIsoYears() {
        assertNull(ResultComparator.compare(result(VARCHAR, "x0007-01-01 (BC)b", "0001-12-31 (BC)"),
                result(VARCHAR, "x-0006-01-01b", "0000-12-31"), false));
        assertEquals("-3780006-01-01", ResultComparator.isoYears("3780007-01-01 (BC)"));
        assertEquals("sorted row 1: expected ('-0006-01-01') but got ('0006-01-01')",
                ResultComparator.compare(result(VARCHAR, "0007-01-01 (BC)"), result(VARCHAR, "0006-01-01"), false));
    }

    @Test
    void multisetsIgnoreOrderButCountDuplicates() {
        assertNull(ResultComparator.compare(result(INTEGER, 1, null, 2, 2), result(INTEGER, 2, 1, 2, null), false));
        assertEquals("expected 3 rows but got 2; first row only in the expected result: (2)",
                ResultComparator.compare(result(INTEGER, 1, 2, 2), result(INTEGER, 2, 1), false));
    }

    @Test
    void orderedResultsCompareRowByRow() {
        assertEquals("row 1: expected (1) but got (2)", ResultComparator.compare(result(INTEGER, 1, 2), result(INTEGER, 2, 1), true));
        assertNull(ResultComparator.compare(result(DATE, LocalDate.of(2000, 1, 1), null), result(DATE, LocalDate.of(2000, 1, 1), null),
                true));
    }

    @Test
    void columnCountsMustAgree() {
        QueryResult two = new QueryResult(List.of(INTEGER, INTEGER), List.of(List.of(1, 2)));
        assertEquals("expected 1 columns but got 2", ResultComparator.compare(result(INTEGER, 1), two, false));
    }
}
