package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Queries reuse their plans only while the catalog version and the parameter values are the same. */
class PlanCacheTest {
    private Database db;
    private Session session;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("test");
        session = db.newSession();
        update("create table t (k integer, v integer)");
        update("insert into t values (1, 10), (2, 20), (2, 21)");
    }

    @AfterEach
    void tearDown() {
        session.close();
        db.close();
    }

    private void update(String sql) {
        session.execute(sql, List.of()).close();
    }

    private List<List<Object>> query(String sql, Object... params) {
        try (StatementResult r = session.execute(sql, Arrays.asList(params))) {
            return r.rows();
        }
    }

    @Test
    void aRepeatedQueryIsPlannedOnceAndAnswersTheSame() {
        String sql = "select k, sum(v) from t group by k order by k";
        List<List<Object>> first = query(sql);
        assertEquals(1, db.planCache().size());
        long planned = db.planner().statementsPlanned();
        assertEquals(first, query(sql));
        assertEquals(first, query("  " + sql + "\n"));
        assertEquals(1, db.planCache().size());
        assertEquals(planned, db.planner().statementsPlanned());
        assertEquals(List.of(List.of(1, 10L), List.of(2, 41L)), first);
    }

    @Test
    void aCommitMakesTheNextRunPlanAgainOverTheNewData() {
        String sql = "select count(*), sum(v) from t";
        assertEquals(List.of(List.of(3L, 51L)), query(sql));
        update("insert into t values (3, 30)");
        assertEquals(List.of(List.of(4L, 81L)), query(sql));
        update("delete from t where k = 2");
        assertEquals(List.of(List.of(2L, 40L)), query(sql));
        update("drop table t");
        WarpException gone = assertThrows(WarpException.class, () -> query(sql));
        assertEquals(SqlState.UNDEFINED_TABLE.code(), gone.sqlState());
    }

    @Test
    void eachParameterValueHasItsOwnPlan() {
        String sql = "select v from t where k = ? order by v";
        assertEquals(List.of(List.of(10)), query(sql, 1));
        assertEquals(List.of(List.of(20), List.of(21)), query(sql, 2));
        assertEquals(List.of(), query(sql, (Object) null));
        assertEquals(List.of(List.of(10)), query(sql, 1));
        assertEquals(3, db.planCache().size());
    }

    @Test
    void systemTablesAreReadLiveNotCached() {
        query("select hits from warpdb_cache");
        assertEquals(0, db.planCache().size());
    }

    @Test
    void theCacheCanBeTurnedOffPerSession() {
        update("set plan_cache = off");
        query("select k from t");
        assertEquals(0, db.planCache().size());
        update("set plan_cache = 'on'");
        query("select k from t");
        assertEquals(1, db.planCache().size());
        WarpException bad = assertThrows(WarpException.class, () -> update("set plan_cache = 'maybe'"));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE.code(), bad.sqlState());
    }

    @Test
    void partsOfAQueryRunElsewhereReusePlansToo() {
        // a cluster's shard asks QueryPlans for the plan of each fragment's query text
        String sql = "select k, v from t where v > 10";
        assertEquals(List.of(List.of(2, 20), List.of(2, 21)), rowsOf(QueryPlans.of(session, sql, List.of()).orElseThrow()));
        long planned = db.planner().statementsPlanned();
        QueryPlans.QueryPlan again = QueryPlans.of(session, sql, List.of()).orElseThrow();
        assertEquals(planned, db.planner().statementsPlanned());
        assertEquals(List.of(List.of(2, 20), List.of(2, 21)), rowsOf(again));
        assertEquals(List.of(List.of(2, 20), List.of(2, 21)), query(sql), "a statement's run takes the same entry");
        assertEquals(1, db.planCache().size());
        assertEquals(planned, db.planner().statementsPlanned());
        assertEquals(java.util.Optional.empty(), QueryPlans.of(session, "explain " + sql, List.of()));
        update("insert into t values (3, 30)");
        assertEquals(3, rowsOf(QueryPlans.of(session, sql, List.of()).orElseThrow()).size(), "a new catalog version plans again");
        update("set plan_cache = off");
        planned = db.planner().statementsPlanned();
        QueryPlans.of(session, sql, List.of());
        assertEquals(planned + 1, db.planner().statementsPlanned());
    }

    private List<List<Object>> rowsOf(QueryPlans.QueryPlan plan) {
        try (StatementResult r = QueryPlans.run(session, plan.plan(), plan.schema())) {
            return r.rows().stream().sorted(java.util.Comparator.comparing(row -> (Integer) row.get(1))).toList();
        }
    }
}
