package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runner itself, on DuckDB as a stand-in database. */
class SltRunnerTest {

    private static SltRunner.Report run(String text, boolean checkErrors) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            return SltRunner.run(SltParser.parse("self.test", text), c, new SltRunner.Options("duckdb", true, checkErrors, 30));
        }
    }

    @Test
    void passingScript() throws Exception {
        SltRunner.Report r = run("""
                statement ok
                CREATE TABLE t (a INTEGER, b VARCHAR, c DOUBLE, d DECIMAL(4,2), e DATE, f BOOLEAN)

                statement ok
                INSERT INTO t VALUES (2, 'x', 2.5, 1.5, DATE '2020-01-02', true), (1, '', NULL, -0.25, NULL, NULL)

                query ITRDAB rowsort
                SELECT * FROM t
                ----
                1	(empty)	NULL	-0.25	NULL	NULL
                2	x	2.500	1.50	2020-01-02	true

                query IT
                SELECT a, b FROM t ORDER BY a DESC
                ----
                2
                x
                1
                (empty)

                query I valuesort
                SELECT a FROM t
                ----
                2
                1

                query I
                SELECT a FROM t WHERE a > 5

                query I nosort same
                SELECT count(*) FROM t
                ----
                2

                query I nosort same
                SELECT 2
                ----
                2

                statement error
                SELECT * FROM nope
                ----
                nope

                skipif duckdb
                query I
                SELECT 'never run'

                halt

                query I
                SELECT 'after halt'
                """, true);
        assertNull(r.failureMessage());
        assertEquals(9, r.run());
        assertEquals(1, r.skipped());
        assertTrue(r.halted());
    }

    @Test
    void allFailuresAreCollectedWithTheirLines() throws Exception {
        SltRunner.Report r = run("""
                statement ok
                CREATE TABLE t (a INTEGER)

                statement ok
                INSERT INTO t VALUES (1), (2)

                query I
                SELECT a FROM t ORDER BY a
                ----
                1
                3

                statement ok
                SELECT * FROM missing_table

                query R
                SELECT a FROM t ORDER BY a
                ----
                1
                2

                statement error
                SELECT 1
                ----
                42601

                query II
                SELECT a FROM t

                query I
                SELECT a FROM t ORDER BY a
                ----
                1
                2

                statement error
                SELECT * FROM missing_table
                ----
                no such thing in the message
                """, true);
        List<Integer> lines = r.failures().stream().map(SltRunner.Failure::line).toList();
        assertEquals(List.of(7, 13, 16, 22, 27, 36), lines, r.failureMessage());
        String msg = r.failureMessage();
        assertTrue(msg.startsWith("6 of 9 records failed in self.test on duckdb"), msg);
        assertTrue(msg.contains("self.test:7: wrong result (nosort): first difference at row 2"), msg);
        assertTrue(msg.contains("SQL: SELECT a FROM t ORDER BY a"), msg);
        assertTrue(msg.contains("self.test:13: statement failed"), msg);
        assertTrue(msg.contains("self.test:16: column 1 (a) has type INTEGER (letter I), expected letter R"), msg);
        assertTrue(msg.contains("self.test:22: statement succeeded, but an error was expected (SQLSTATE 42601)"), msg);
        assertTrue(msg.contains("self.test:27: query returned 1 column(s), type string 'II' has 2"), msg);
        assertTrue(msg.contains("self.test:36: expected an error message containing 'no such thing in the message'"), msg);
    }

    @Test
    void errorDetailsAreIgnoredWhenNotChecked() throws Exception {
        SltRunner.Report r = run("""
                statement error
                SELECT * FROM missing_table
                ----
                42P01
                """, false);
        assertFalse(r.failures().iterator().hasNext(), r.failureMessage());
    }
}
