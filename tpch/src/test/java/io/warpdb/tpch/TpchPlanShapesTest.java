package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Plan shapes the TPC-H timings depend on, checked on SF 0.01 data (the estimates read its zone maps). */
class TpchPlanShapesTest {
    private static Database database;

    @BeforeAll
    static void load() {
        database = Database.inMemory("tpch-plans");
        TpchLoader.load(database, new TpchGenerator(0.01), 2);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /**
     * The decorrelated scalar sub-queries of Q2 (MIN per part), Q17 (AVG per part) and Q20 (SUM per
     * part and supplier) aggregate only the groups the outer query keeps: their input is semi-joined
     * to the outer filter (AggregateSemiJoinReduction) instead of aggregating all of partsupp or
     * lineitem.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 17, 20})
    void scalarSubQueryAggregatesReadOnlyTheKeptGroups(int query) {
        String plan = explain(query);
        assertTrue(plan.contains("Join(kind=SEMI"), "Q" + query + ":\n" + plan);
    }

    /**
     * Q15 reads its view revenue0 in the join and in the MAX subquery, Q11 the supplier-nation join
     * in the query and in its HAVING subquery: each is computed once, its second use reads the result.
     */
    @ParameterizedTest
    @ValueSource(ints = {11, 15})
    void aSubplanUsedTwiceIsComputedOnce(int query) {
        String plan = explain(query);
        assertTrue(plan.contains("Shared(id=1, reads the result of its first use)"), "Q" + query + ":\n" + plan);
    }

    private static String explain(int query) {
        try (Session session = database.newSession();
                StatementResult r = session.execute("EXPLAIN " + TpchQueries.get(query).sql(), List.of())) {
            return r.rows().stream().map(row -> (String) row.get(0)).collect(Collectors.joining("\n"));
        }
    }
}
