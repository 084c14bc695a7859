package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A prepared statement is planned once per catalog version: its runs bind new parameter values
 * to the kept plan, and a commit since makes the next run plan the text again.
 */
class PreparedStatementTest {
    private Database db;
    private Session session;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("test");
        session = db.newSession();
        update("create table t (k integer, v varchar(5))");
        update("insert into t values (1, 'a'), (2, 'b'), (2, 'c')");
    }

    @AfterEach
    void tearDown() {
        session.close();
        db.close();
    }

    private long update(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.updateCount();
        }
    }

    private static List<List<Object>> rows(PreparedStatement statement, Object... params) {
        try (StatementResult r = statement.execute(Arrays.asList(params))) {
            return r.rows();
        }
    }

    private static long count(PreparedStatement statement, Object... params) {
        try (StatementResult r = statement.execute(Arrays.asList(params))) {
            return r.updateCount();
        }
    }

    private long planned() {
        return db.planner().statementsPlanned();
    }

    @Test
    void aQueryRunTwiceWithOtherValuesIsPlannedOnce() {
        long before = planned();
        PreparedStatement query = session.prepare("select v from t where k = ? order by v");
        assertEquals(List.of(DataType.INTEGER), query.parameterTypes());
        assertEquals("v", query.resultSchema().field(0).name());
        assertEquals(before + 1, planned());
        assertEquals(List.of(List.of("a")), rows(query, 1));
        assertEquals(List.of(List.of("b"), List.of("c")), rows(query, 2));
        assertEquals(List.of(), rows(query, (Object) null));
        assertEquals(before + 1, planned());
    }

    @Test
    void aCommitMakesTheNextRunPlanAgainOverTheNewData() {
        PreparedStatement query = session.prepare("select count(*) from t where k >= ?");
        assertEquals(List.of(List.of(3L)), rows(query, 1));
        long before = planned();
        update("insert into t values (3, 'd')");
        assertEquals(List.of(List.of(4L)), rows(query, 1));
        assertEquals(List.of(List.of(3L)), rows(query, 2));
        assertEquals(before + 2, planned()); // the INSERT, then the query once for the new version
        update("drop table t");
        WarpException gone = assertThrows(WarpException.class, () -> rows(query, 1));
        assertEquals(SqlState.UNDEFINED_TABLE.code(), gone.sqlState());
        update("create table t (k integer)");
        update("insert into t values (5)");
        assertEquals(List.of(List.of(1L)), rows(query, 1));
    }

    @Test
    void dmlRunsOnItsKeptPlanUntilItCommits() {
        long before = planned();
        PreparedStatement insert = session.prepare("insert into t values (?, ?)");
        assertEquals(List.of(DataType.INTEGER, DataType.varchar(5)), insert.parameterTypes());
        assertNull(insert.resultSchema());
        assertEquals(1, count(insert, 7, "x"));
        assertEquals(before + 1, planned());
        assertEquals(1, count(insert, 8, null)); // after the first run's commit, planned again
        assertEquals(before + 2, planned());
        PreparedStatement delete = session.prepare("delete from t where k = ?");
        PreparedStatement change = session.prepare("update t set v = ? where k = ?");
        assertEquals(1, count(change, "y", 8));
        assertEquals(2, count(delete, 2));
        assertEquals(List.of(List.of(1, "a"), List.of(7, "x"), List.of(8, "y")), rows(session.prepare("select k, v from t order by k")));
    }

    @Test
    void ddlSetAndExplainArePreparedToo() {
        PreparedStatement create = session.prepare("create table u as select k from t where k > ?");
        assertEquals(2, count(create, 1));
        PreparedStatement set = session.prepare("set parallelism = 3");
        assertEquals(0, count(set));
        assertEquals(3, session.parallelism());
        PreparedStatement explain = session.prepare("explain select k from u where k = ?");
        assertEquals(ExplainRunner.SCHEMA, explain.resultSchema());
        assertEquals(List.of(DataType.INTEGER), explain.parameterTypes());
        long before = planned();
        assertEquals(true, rows(explain, 2).toString().contains("2"));
        assertEquals(before, planned());
    }

    /** The server prepares on one thread and runs on another; planning must not depend on the thread. */
    @Test
    void aPlanPreparedOnOneThreadRunsOnAnother() throws Exception {
        update("create table u (k integer, w integer)");
        update("insert into u values (1, 10), (2, 20), (2, 30)");
        PreparedStatement query = session.prepare("select t.k, sum(u.w) from t join u on t.k = u.k where t.v <> ?"
                + " and u.w > (select min(w) from u) group by t.k order by t.k");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertEquals(List.of(List.of(2, 100L)), other.submit(() -> rows(query, "z")).get());
            assertEquals(List.of(List.of(2, 50L)), other.submit(() -> rows(query, "b")).get());
        } finally {
            other.shutdown();
        }
    }

    @Test
    void aBadStatementFailsWhenPrepared() {
        WarpException unknown = assertThrows(WarpException.class, () -> session.prepare("select nope from t"));
        assertEquals(SqlState.UNDEFINED_COLUMN.code(), unknown.sqlState());
        WarpException syntax = assertThrows(WarpException.class, () -> session.prepare("selec k from t"));
        assertEquals(SqlState.SYNTAX_ERROR.code(), syntax.sqlState());
    }
}
