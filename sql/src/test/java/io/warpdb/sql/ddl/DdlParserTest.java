package io.warpdb.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DdlParserTest {
    @Test
    void createTableWithEveryType() {
        var t = (DdlStatement.CreateTable) DdlParser.parse("""
                -- a comment
                CREATE TABLE IF NOT EXISTS public."Mixed Case" (
                  id INTEGER NOT NULL, big BIGINT, price DECIMAL(15,2), ratio DOUBLE PRECISION,
                  day DATE, flag BOOLEAN, code CHAR(3), note VARCHAR(40), txt TEXT, f FLOAT NULL)""");
        assertEquals("Mixed Case", t.name());
        assertTrue(t.ifNotExists());
        assertNull(t.query());
        assertEquals(List.of(DataType.INTEGER.withNullable(false), DataType.BIGINT, DataType.decimal(15, 2), DataType.DOUBLE,
                DataType.DATE, DataType.BOOLEAN, DataType.chars(3), DataType.varchar(40), DataType.VARCHAR, DataType.DOUBLE),
                t.schema().fields().stream().map(f -> f.type()).toList());
    }

    @Test
    void narrowTypesAndTimestampsWithTheirAliases() {
        var t = (DdlStatement.CreateTable) DdlParser.parse("create table n (a smallint, b int2, c tinyint, d int1, e real, f float4, "
                + "g timestamp, h timestamp(3), i datetime, j timestamp without time zone not null)");
        assertEquals(List.of(DataType.SMALLINT, DataType.SMALLINT, DataType.TINYINT, DataType.TINYINT, DataType.REAL, DataType.REAL,
                DataType.TIMESTAMP, DataType.TIMESTAMP, DataType.TIMESTAMP, DataType.TIMESTAMP.withNullable(false)),
                t.schema().fields().stream().map(f -> f.type()).toList());
        WarpException zone = assertThrows(WarpException.class, () -> DdlParser.parse("create table z (a timestamp with time zone)"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, zone.state());
        WarpException nanos = assertThrows(WarpException.class, () -> DdlParser.parse("create table z (a timestamp(9))"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, nanos.state());
    }

    @Test
    void createTableAsKeepsQueryPositions() {
        var t = (DdlStatement.CreateTable) DdlParser.parse("create table t2 (x, y) as\nselect a, b from t");
        assertEquals(List.of("x", "y"), t.columnNames());
        assertEquals("create table t2 (x, y) as\nselect a, b from t".length(), t.query().length());
        assertTrue(t.query().endsWith("\nselect a, b from t"));
        assertTrue(t.query().substring(0, 20).isBlank());
    }

    @Test
    void createTableWithDistribution() {
        var hashed = (DdlStatement.CreateTable) DdlParser.parse("CREATE TABLE t (k BIGINT, v INT) WITH (distribution = 'hash(K)')");
        assertEquals(Distribution.hash("K"), hashed.distribution());
        assertEquals(1, hashed.distribution().columnIn(hashed.schema()) + 1);
        var copied = (DdlStatement.CreateTable) DdlParser.parse("create table r (k int) with (DISTRIBUTION = 'Replicated');");
        assertTrue(copied.distribution().replicated());
        assertNull(((DdlStatement.CreateTable) DdlParser.parse("create table p (k int)")).distribution());
        assertEquals(SqlState.UNDEFINED_COLUMN, assertThrows(WarpException.class,
                () -> DdlParser.parse("create table t (k int) with (distribution = 'hash(x)')")).state());
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, assertThrows(WarpException.class,
                () -> DdlParser.parse("create table t (k int) with (distribution = 'range(k)')")).state());
        assertEquals(SqlState.SYNTAX_ERROR, assertThrows(WarpException.class,
                () -> DdlParser.parse("create table t (k int) with (partitions = 3)")).state());
    }

    @Test
    void primaryKeysInKeyOrderWithTheTablesSpelling() {
        var column = (DdlStatement.CreateTable) DdlParser.parse("create table t (id int primary key, v int unique)");
        assertEquals(List.of("id"), column.primaryKey());
        var constraint = (DdlStatement.CreateTable) DdlParser.parse(
                "create table t (Ka int, kb int, v int, constraint t_pk primary key (KB, ka), unique (v))");
        assertEquals(List.of("kb", "Ka"), constraint.primaryKey());
        assertEquals(List.of(false, false, true), constraint.schema().fields().stream().map(f -> f.type().nullable()).toList());
        assertEquals(List.of(), ((DdlStatement.CreateTable) DdlParser.parse("create table t (a int unique)")).primaryKey());
    }

    @Test
    void dropTable() {
        var d = (DdlStatement.DropTable) DdlParser.parse("DROP TABLE IF EXISTS t;");
        assertEquals("t", d.name());
        assertTrue(d.ifExists());
        assertFalse(((DdlStatement.DropTable) DdlParser.parse("drop table t")).ifExists());
    }

    @Test
    void otherStatementsAreNotDdl() {
        assertNull(DdlParser.parse("select 1"));
        assertNull(DdlParser.parse("insert into t values (1)"));
    }

    @Test
    void errorsNameLineAndColumn() {
        WarpException e = assertThrows(WarpException.class, () -> DdlParser.parse("CREATE TABLE t (\n  a INTEGER,\n  b )"));
        assertEquals(SqlState.SYNTAX_ERROR, e.state());
        assertTrue(e.getMessage().contains("line 3, column 5"), e.getMessage());
        WarpException type = assertThrows(WarpException.class, () -> DdlParser.parse("create table t (a BLOB)"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, type.state());
        assertTrue(type.getMessage().contains("BLOB"), type.getMessage());
        WarpException trailing = assertThrows(WarpException.class, () -> DdlParser.parse("drop table t extra"));
        assertTrue(trailing.getMessage().contains("'extra'"), trailing.getMessage());
        WarpException decimal = assertThrows(WarpException.class, () -> DdlParser.parse("create table t (a DECIMAL(39,2))"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, decimal.state());
    }
}
