package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestFileTest {
    @Test
    void valuesRenderAsTheSqltestRunnerRendersThem() {
        assertEquals("NULL", TestFile.render(null, 'I', -1, false));
        assertEquals("-42", TestFile.render(-42L, 'I', -1, false));
        assertEquals("170141183460469231731687303715884105727",
                TestFile.render(new BigInteger("170141183460469231731687303715884105727"), 'I', -1, false));
        assertEquals("2.500", TestFile.render(2.5, 'R', -1, false));
        assertEquals("0.333", TestFile.render(1.0 / 3, 'R', -1, false));
        assertEquals("0.000", TestFile.render(-0.0001, 'R', -1, false));
        assertEquals("Infinity", TestFile.render(Double.POSITIVE_INFINITY, 'R', -1, false));
        assertEquals("1.50", TestFile.render(new BigDecimal("1.5"), 'D', 2, false));
        assertEquals("1.2100", TestFile.render(new BigDecimal("1.2100"), 'D', -1, false));
        assertEquals("2000-02-29", TestFile.render(LocalDate.of(2000, 2, 29), 'A', -1, false));
        assertEquals("true", TestFile.render(true, 'B', -1, false));
        assertEquals("(empty)", TestFile.render("", 'T', -1, false));
        assertEquals("ab", TestFile.render("ab   ", 'T', -1, true));
        assertEquals(" a b ", TestFile.render(" a b ", 'T', -1, false));
    }

    @Test
    void aFileListsTheHeaderTheSetupAndTheRecords() {
        String text = new TestFile().comment("first\nline").comment("second")
                .statement("CREATE TABLE t0 (c0 INTEGER)")
                .statement("INSERT INTO t0 VALUES (1), (NULL)")
                .record(new TestFile.QueryRecord("SELECT a1.c0 AS x0 FROM t0 AS a1", "I", false, List.of(List.of("1"), List.of("NULL"))))
                .record(new TestFile.QueryRecord("SELECT 1 AS x0, 'a' AS x1 FROM t0 AS a1 ORDER BY 1 ASC NULLS LAST", "IT", true,
                        List.of()))
                .record(new TestFile.ErrorRecord("SELECT 1 / 0 AS x0 FROM t0 AS a1", "22012"))
                .record(new TestFile.OkRecord("SELECT 2 AS x0 FROM t0 AS a1"))
                .text();
        assertEquals("""
                # first line
                # second

                statement ok
                CREATE TABLE t0 (c0 INTEGER)

                statement ok
                INSERT INTO t0 VALUES (1), (NULL)

                query I rowsort
                SELECT a1.c0 AS x0 FROM t0 AS a1
                ----
                1
                NULL

                query IT nosort
                SELECT 1 AS x0, 'a' AS x1 FROM t0 AS a1 ORDER BY 1 ASC NULLS LAST
                ----

                statement error
                SELECT 1 / 0 AS x0 FROM t0 AS a1
                ----
                22012

                statement ok
                SELECT 2 AS x0 FROM t0 AS a1
                """, text);
    }
}
