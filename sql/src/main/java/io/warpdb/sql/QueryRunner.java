package io.warpdb.sql;

import io.warpdb.sql.ParsedStatement.Explain;
import io.warpdb.sql.PlanCache.Planned;
import io.warpdb.storage.CatalogSnapshot;
import java.util.List;

/**
 * SELECT, VALUES, WITH and set operations: binds the query's plan to its parameter values and
 * streams its rows, or explains it. A text run again with the same values in the same catalog
 * version runs on its plan from the plan cache.
 */
final class QueryRunner {
    private final Session session;
    private final PlanExecution execution;
    private final ExplainRunner explainer;

    QueryRunner(Session session, PlanExecution execution, ExplainRunner explainer) {
        this.session = session;
        this.execution = execution;
        this.explainer = explainer;
    }

    /**
     * Runs a text that ran before as a query statement, with these values in the snapshot's
     * catalog version, on its plan from the plan cache, without parsing it again; null (and
     * nothing run) when the cache has no such plan. The result owns the snapshot.
     */
    StatementResult runCached(String sql, List<Object> parameters, CatalogSnapshot snapshot) {
        Planned planned = session.database().planCache().get(sql.strip(), parameters, snapshot);
        return planned == null ? null : run(planned, snapshot);
    }

    /** Plans and runs a query statement, keeping its plan in the plan cache when the session uses it. The result owns the snapshot. */
    StatementResult run(ParsedStatement query, List<Object> parameters, CatalogSnapshot snapshot) {
        return run(plan(session, query, parameters, snapshot), snapshot);
    }

    /** Plans a query statement and binds it to these values, keeping the plan in the plan cache when the session uses it. */
    static Planned plan(Session session, ParsedStatement query, List<Object> parameters, CatalogSnapshot snapshot) {
        return plan(session, query, parameters, null, snapshot);
    }

    /** As {@link #plan(Session, ParsedStatement, List, CatalogSnapshot)}, from {@code pinned}'s statistics (null: the tables' own). */
    static Planned plan(Session session, ParsedStatement query, List<Object> parameters, PinnedStatistics pinned, CatalogSnapshot snapshot) {
        Planned planned = bind(session.database().planner().plan(query, snapshot, pinned), query.explain(), parameters, snapshot);
        if (session.planCacheEnabled()) {
            session.database().planCache().put(query.sql().strip(), parameters, pinned, snapshot, planned);
        }
        return planned;
    }

    /** Runs a planned query statement with these parameter values (a prepared statement's plan). The result owns the snapshot. */
    StatementResult run(PlannedStatement query, Explain explain, List<Object> parameters, CatalogSnapshot snapshot) {
        return run(bind(query, explain, parameters, snapshot), snapshot);
    }

    private static Planned bind(PlannedStatement query, Explain explain, List<Object> parameters, CatalogSnapshot snapshot) {
        return new Planned(query.bind(parameters, snapshot), query.resultSchema(), explain);
    }

    private StatementResult run(Planned query, CatalogSnapshot snapshot) {
        return switch (query.explain()) {
            case NONE -> execution.stream(query.plan(), query.schema(), snapshot);
            case PLAN -> explainer.explain(query.plan(), snapshot);
            case ANALYZE -> explainer.analyze(query.plan(), snapshot);
        };
    }
}
