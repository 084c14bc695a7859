package io.warpdb.exec.cpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DateFunctionTest extends ExecTestBase {
    private final TestTable days = TestTable.of("t", "d", DATE)
            .batch(row(date("1998-12-01")), row(date("1996-02-29")), row(date("1970-01-01")), row((Object) null));

    private List<Object> extract(Op op) {
        return eval(days, call(op, BIGINT, col(0, DATE)));
    }

    @Test
    void extractCalendarParts() {
        assertEquals(Arrays.asList(1998L, 1996L, 1970L, null), extract(Op.EXTRACT_YEAR));
        assertEquals(Arrays.asList(4L, 1L, 1L, null), extract(Op.EXTRACT_QUARTER));
        assertEquals(Arrays.asList(12L, 2L, 1L, null), extract(Op.EXTRACT_MONTH));
        assertEquals(Arrays.asList(1L, 29L, 1L, null), extract(Op.EXTRACT_DAY));
        // 1998-12-01 was a Tuesday, 1996-02-29 a Thursday, 1970-01-01 a Thursday; Sunday is 0.
        assertEquals(Arrays.asList(2L, 4L, 4L, null), extract(Op.EXTRACT_DOW));
        assertEquals(Arrays.asList(335L, 60L, 1L, null), extract(Op.EXTRACT_DOY));
    }

    @Test
    void extractAgreesWithJavaTimeOverFourCenturies() {
        List<List<Object>> rows = new ArrayList<>();
        for (long day = LocalDate.of(1899, 12, 25).toEpochDay(); day < LocalDate.of(2300, 1, 5).toEpochDay(); day += 13) {
            rows.add(row(java.sql.Date.valueOf(LocalDate.ofEpochDay(day))));
        }
        TestTable t = TestTable.of("t", "d", DATE).batches(rows, rows.size());
        Expr d = col(0, DATE);
        List<List<Object>> out = run(project(scan(t), call(Op.EXTRACT_YEAR, BIGINT, d), call(Op.EXTRACT_MONTH, BIGINT, d),
                call(Op.EXTRACT_DAY, BIGINT, d), call(Op.EXTRACT_DOY, BIGINT, d), call(Op.EXTRACT_DOW, BIGINT, d)));
        for (int i = 0; i < rows.size(); i++) {
            LocalDate date = ((java.sql.Date) rows.get(i).get(0)).toLocalDate();
            assertEquals(List.of((long) date.getYear(), (long) date.getMonthValue(), (long) date.getDayOfMonth(),
                    (long) date.getDayOfYear(), (long) date.getDayOfWeek().getValue() % 7), out.get(i), date.toString());
        }
    }

    @Test
    void dateArithmetic() {
        assertEquals(Arrays.asList(date("1998-09-02"), date("1995-12-01"), date("1969-10-03"), null),
                eval(days, call(Op.DATE_ADD_DAYS, DATE, col(0, DATE), lit(-90))));
        assertEquals(Arrays.asList(date("1999-01-01"), date("1996-03-31"), date("1970-02-01"), null),
                eval(days, call(Op.DATE_ADD_DAYS, DATE, col(0, DATE), lit(31))));
        // Month arithmetic clamps to the end of the month.
        assertEquals(Arrays.asList(date("1999-02-01"), date("1996-04-29"), date("1970-03-01"), null),
                eval(days, call(Op.DATE_ADD_MONTHS, DATE, col(0, DATE), lit(2))));
        assertEquals(date("1997-02-28"), evalConstant(call(Op.DATE_ADD_MONTHS, DATE, dateLit("1996-02-29"), lit(12))));
        assertEquals(date("1996-02-29"), evalConstant(call(Op.DATE_ADD_MONTHS, DATE, dateLit("1996-01-31"), lit(1))));
        assertEquals(date("1995-11-30"), evalConstant(call(Op.DATE_ADD_MONTHS, DATE, dateLit("1996-01-31"), lit(-2))));
    }
}
