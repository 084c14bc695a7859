package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SltParserTest {

    private static SltScript parse(String text) {
        return SltParser.parse("t.test", text);
    }

    @Test
    void statementsAndComments() {
        SltScript s = parse("""
                # a comment

                statement ok
                CREATE TABLE t (a INTEGER,
                  b VARCHAR);

                # another
                statement error
                SELECT * FROM nope
                """);
        assertEquals(2, s.records().size());
        SltRecord.Statement ok = assertInstanceOf(SltRecord.Statement.class, s.records().get(0));
        assertEquals(3, ok.line());
        assertFalse(ok.expectError());
        assertEquals("CREATE TABLE t (a INTEGER,\n  b VARCHAR)", ok.sql());
        SltRecord.Statement err = assertInstanceOf(SltRecord.Statement.class, s.records().get(1));
        assertEquals(8, err.line());
        assertTrue(err.expectError());
        assertNull(err.expectedState());
        assertNull(err.expectedMessage());
    }

    @Test
    void statementErrorWithStateAndMessage() {
        SltScript s = parse("""
                statement error
                SELECT 1/0
                ----
                22012
                division by zero

                statement error
                SELECT x
                ----
                column 'x' not found

                statement error
                SELECT y
                ----
                42703
                """);
        var a = (SltRecord.Statement) s.records().get(0);
        assertEquals("22012", a.expectedState());
        assertEquals("division by zero", a.expectedMessage());
        var b = (SltRecord.Statement) s.records().get(1);
        assertNull(b.expectedState());
        assertEquals("column 'x' not found", b.expectedMessage());
        var c = (SltRecord.Statement) s.records().get(2);
        assertEquals("42703", c.expectedState());
        assertNull(c.expectedMessage());
    }

    @Test
    void queryWithTypesSortModeLabelAndRows() {
        SltScript s = parse("query ITR rowsort lbl\nSELECT a, b, c\nFROM t\n----\n1\tx\t1.500\n2\t(empty)\tNULL\n\nquery I\nSELECT 1\n----\n1\n");
        SltRecord.Query q = assertInstanceOf(SltRecord.Query.class, s.records().get(0));
        assertEquals(1, q.line());
        assertEquals("ITR", q.types());
        assertEquals(SltRecord.SortMode.ROWSORT, q.sortMode());
        assertEquals("lbl", q.label());
        assertEquals("SELECT a, b, c\nFROM t", q.sql());
        assertEquals(List.of(List.of("1", "x", "1.500"), List.of("2", "(empty)", "NULL")), q.expected());
        SltRecord.Query q2 = (SltRecord.Query) s.records().get(1);
        assertEquals(8, q2.line());
        assertEquals(SltRecord.SortMode.NOSORT, q2.sortMode());
        assertNull(q2.label());
        assertEquals(List.of(List.of("1")), q2.expected());
    }

    @Test
    void queryWithoutResultsExpectsNoRows() {
        SltScript s = parse("query I\nSELECT a FROM t WHERE false\n\nquery T valuesort\nSELECT 'a'\n----\na\n");
        assertEquals(List.of(), ((SltRecord.Query) s.records().get(0)).expected());
        assertEquals(SltRecord.SortMode.VALUESORT, ((SltRecord.Query) s.records().get(1)).sortMode());
    }

    @Test
    void conditionsAndHalt() {
        SltScript s = parse("""
                skipif gpu
                onlyif cpu
                query I
                SELECT 1
                ----
                1

                halt

                statement ok
                SELECT 2
                """);
        SltRecord q = s.records().get(0);
        assertEquals(3, q.line());
        assertEquals(List.of(new SltRecord.Condition(false, "gpu"), new SltRecord.Condition(true, "cpu")), q.conditions());
        assertTrue(q.appliesTo("cpu"));
        assertFalse(q.appliesTo("gpu"));
        assertFalse(q.appliesTo("duckdb"));
        assertInstanceOf(SltRecord.Halt.class, s.records().get(1));
        assertEquals(3, s.records().size());
    }

    @Test
    void windowsLineEndingsAreAccepted() {
        SltScript s = parse("query II\r\nSELECT 1, 2\r\n----\r\n1\t2\r\n");
        assertEquals(List.of(List.of("1", "2")), ((SltRecord.Query) s.records().get(0)).expected());
    }

    @Test
    void malformedRecordsReportFileAndLine() {
        var e1 = assertThrows(SltParseException.class, () -> parse("\nselect 1\n"));
        assertTrue(e1.getMessage().startsWith("t.test:2: unknown record type"), e1.getMessage());
        var e2 = assertThrows(SltParseException.class, () -> parse("query IX\nSELECT 1\n"));
        assertTrue(e2.getMessage().startsWith("t.test:1: unknown type letter 'X'"), e2.getMessage());
        var e3 = assertThrows(SltParseException.class, () -> parse("statement ok\n\n"));
        assertTrue(e3.getMessage().startsWith("t.test:1: record has no SQL"), e3.getMessage());
        var e4 = assertThrows(SltParseException.class, () -> parse("statement ok\nSELECT 1\n----\n1\n"));
        assertTrue(e4.getMessage().startsWith("t.test:3:"), e4.getMessage());
        var e5 = assertThrows(SltParseException.class, () -> parse("statement maybe\nSELECT 1\n"));
        assertTrue(e5.getMessage().startsWith("t.test:1:"), e5.getMessage());
        var e6 = assertThrows(SltParseException.class, () -> parse("query I rowsort lbl extra\nSELECT 1\n"));
        assertTrue(e6.getMessage().startsWith("t.test:1:"), e6.getMessage());
    }

    @Test
    void sqlStateRecognition() {
        assertTrue(SltParser.isSqlState("42P01"));
        assertTrue(SltParser.isSqlState("22012"));
        assertFalse(SltParser.isSqlState("42p01"));
        assertFalse(SltParser.isSqlState("division"));
        assertFalse(SltParser.isSqlState("2201"));
    }

    /** Every file of the corpus parses, and the corpus keeps its size. */
    @Test
    void corpusParses() {
        long queries = 0;
        for (Corpus.TestFile f : Corpus.files("")) {
            SltScript s = f.parse();
            assertFalse(s.records().isEmpty(), f.name() + " has no records");
            if (!f.pending()) {
                queries += s.queryCount();
            }
        }
        assertTrue(queries >= 150, "the corpus (outside sql/pending) has only " + queries + " query records");
    }
}
