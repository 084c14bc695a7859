package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.ParsedStatement.Explain;
import io.warpdb.sql.ddl.DdlStatement;
import org.junit.jupiter.api.Test;

/** Each statement is classified once, into the kind whose runner runs it, with its EXPLAIN prefix. */
class ParsedStatementTest {
    private static void assertKind(StatementKind kind, Explain explain, String sql) {
        ParsedStatement statement = ParsedStatement.parse(sql);
        assertEquals(kind, statement.kind(), sql);
        assertEquals(explain, statement.explain(), sql);
    }

    private static String refusal(String sql) {
        WarpException e = assertThrows(WarpException.class, () -> ParsedStatement.parse(sql));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED.code(), e.sqlState(), sql);
        return e.getMessage();
    }

    @Test
    void queriesInEveryForm() {
        assertKind(StatementKind.QUERY, Explain.NONE, "select 1");
        assertKind(StatementKind.QUERY, Explain.NONE, "values (1), (2)");
        assertKind(StatementKind.QUERY, Explain.NONE, "with w as (select 1 as x) select x from w");
        assertKind(StatementKind.QUERY, Explain.NONE, "select 1 union all select 2 order by 1");
        assertKind(StatementKind.QUERY, Explain.NONE, "(select a from t) except (select b from u)");
    }

    @Test
    void dmlBySort() {
        assertKind(StatementKind.INSERT, Explain.NONE, "insert into t values (1, ?)");
        assertKind(StatementKind.INSERT, Explain.NONE, "insert into t select * from u");
        assertKind(StatementKind.UPDATE, Explain.NONE, "update t set a = a + 1 where b = ?");
        assertKind(StatementKind.DELETE, Explain.NONE, "delete from t where a > 3");
        assertEquals("t", ParsedStatement.parse("delete from t where a > 3").dmlTarget());
        assertEquals("T", ParsedStatement.parse("update PUBLIC.T set a = 1").dmlTarget());
        assertEquals(null, ParsedStatement.parse("insert into t values (1)").dmlTarget());
    }

    @Test
    void ddlIsParsedByWarpDbsOwnParser() {
        assertKind(StatementKind.DDL, Explain.NONE, "create table t (a integer)");
        assertKind(StatementKind.DDL, Explain.NONE, "create table t as select 1 as a");
        assertKind(StatementKind.DDL, Explain.NONE, "create or replace view v as select 1 as a");
        assertKind(StatementKind.DDL, Explain.NONE, "drop table if exists t");
        assertKind(StatementKind.DDL, Explain.NONE, "drop view v");
        assertKind(StatementKind.DDL, Explain.NONE, "copy t from 'a.csv'");
        assertEquals(new DdlStatement.DropTable("t", true), ParsedStatement.parse("drop table if exists t").ddl());
    }

    @Test
    void settings() {
        assertKind(StatementKind.SET, Explain.NONE, "set executor = 'cpu'");
        assertEquals("executor", ParsedStatement.parse("SET executor = cpu").setOption().getName().toString().toLowerCase());
    }

    @Test
    void explainPrefixesAreTakenOffAndKeepErrorPositions() {
        assertKind(StatementKind.QUERY, Explain.PLAN, "explain select 1");
        assertKind(StatementKind.QUERY, Explain.PLAN, "EXPLAIN PLAN FOR select 1");
        assertKind(StatementKind.QUERY, Explain.ANALYZE, "  explain analyze select 1");
        assertKind(StatementKind.DELETE, Explain.PLAN, "explain delete from t");
        WarpException syntax = assertThrows(WarpException.class, () -> ParsedStatement.parse("explain selec 1"));
        assertEquals(SqlState.SYNTAX_ERROR.code(), syntax.sqlState());
        assertEquals(true, syntax.getMessage().contains("column 9"), syntax.getMessage());
    }

    @Test
    void whatCannotBeRunOrExplainedIsRefused() {
        assertEquals("EXPLAIN applies to queries and DML only", refusal("explain create table t (a integer)"));
        assertEquals("EXPLAIN applies to queries and DML only", refusal("explain set executor = 'cpu'"));
        assertEquals("EXPLAIN ANALYZE applies to queries only", refusal("explain analyze insert into t values (1)"));
        assertEquals("MERGE statements are not supported yet",
                refusal("merge into t using u on t.a = u.a when matched then update set b = u.b"));
    }
}
