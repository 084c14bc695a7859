package io.warpdb.sql;

import io.warpdb.sql.ParsedStatement.Explain;
import io.warpdb.sql.PlanCache.Planned;
import io.warpdb.storage.CatalogSnapshot;
import java.util.List;

/**
 * SELECT, VALUES, WITH and set operations: binds the query's plan to its parameter values (a
 * plan from the plan cache when the same text ran with the same values in the same catalog
 * version) and streams its rows, or explains it.
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
     * Runs a query given as text: its plan comes from the plan cache when the session uses it,
     * else it is planned and kept there. Every query result owns the snapshot.
     */
    StatementResult run(ParsedStatement query, List<Object> parameters, CatalogSnapshot snapshot) {
        PlanCache cache = session.planCacheEnabled() ? session.database().planCache() : null;
        String key = query.text().strip();
        Planned planned = cache == null ? null : cache.get(key, parameters, snapshot);
        if (planned == null) {
            planned = bind(session.database().planner().plan(query, snapshot), parameters, snapshot);
            if (cache != null) {
                cache.put(key, parameters, snapshot, planned);
            }
        }
        return run(planned, query.explain(), snapshot);
    }

    /** Runs a planned query with these parameter values (a prepared statement's kept plan). */
    StatementResult run(PlannedStatement query, Explain explain, List<Object> parameters, CatalogSnapshot snapshot) {
        return run(bind(query, parameters, snapshot), explain, snapshot);
    }

    private static Planned bind(PlannedStatement query, List<Object> parameters, CatalogSnapshot snapshot) {
        return new Planned(query.bind(parameters, snapshot), query.resultSchema());
    }

    private StatementResult run(Planned query, Explain explain, CatalogSnapshot snapshot) {
        return switch (explain) {
            case NONE -> execution.stream(query.plan(), query.schema(), snapshot);
            case PLAN -> explainer.explain(query.plan(), snapshot);
            case ANALYZE -> explainer.analyze(query.plan(), snapshot);
        };
    }
}
