package io.warpdb.sql;

import io.warpdb.storage.CatalogSnapshot;
import java.util.List;
import java.util.function.Function;

/**
 * Runs a session's statements. Each is classified and parsed once ({@link ParsedStatement}), a
 * query or DML statement is planned by one planner ({@link StatementPlanner}), and the runner of
 * its kind runs it: {@link QueryRunner}, {@link DmlRunner}, {@link DdlRunner} or
 * {@link SetRunner}; EXPLAIN goes through {@link ExplainRunner}. A query or DML statement reads
 * one catalog snapshot, released when the statement (for a query: its result) is closed.
 */
final class StatementRunner {
    private final Session session;
    private final Database database;
    private final QueryRunner queries;
    private final DmlRunner dml;
    private final DdlRunner ddl;
    private final SetRunner settings;

    StatementRunner(Session session) {
        this.session = session;
        this.database = session.database();
        PlanExecution execution = new PlanExecution(session);
        ExplainRunner explainer = new ExplainRunner(execution);
        this.queries = new QueryRunner(session, execution, explainer);
        this.dml = new DmlRunner(session, execution, explainer);
        this.ddl = new DdlRunner(session, execution);
        this.settings = new SetRunner(session);
    }

    /** Runs a statement given as text; a query text run before may run on its plan from the plan cache, unparsed. */
    StatementResult run(String sql, List<Object> parameters) {
        StatementResult intercepted = intercept(sql, parameters);
        if (intercepted != null) {
            return intercepted;
        }
        if (session.planCacheEnabled()) {
            StatementResult cached = inSnapshot(snapshot -> queries.runCached(sql, parameters, snapshot));
            if (cached != null) {
                return cached;
            }
        }
        ParsedStatement statement = ParsedStatement.parse(sql);
        if (statement.kind() == StatementKind.QUERY) {
            return inSnapshot(snapshot -> queries.run(statement, parameters, snapshot));
        }
        return run(statement, snapshot -> database.planner().plan(statement, snapshot), parameters);
    }

    /** Classifies and parses {@code sql} and, for a query or DML statement, plans it now. */
    PreparedStatement prepare(String sql) {
        ParsedStatement statement = ParsedStatement.parse(sql);
        if (!statement.kind().isPlanned()) {
            return new PreparedStatement(this, statement, null);
        }
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            return new PreparedStatement(this, statement, database.planner().plan(statement, snapshot));
        }
    }

    /** Runs a prepared statement with these parameter values, on its kept plan while that holds. */
    StatementResult run(PreparedStatement prepared, List<Object> parameters) {
        StatementResult intercepted = intercept(prepared.sql(), parameters);
        if (intercepted != null) {
            return intercepted;
        }
        return run(prepared.statement(), snapshot -> prepared.planIn(snapshot, database.planner()), parameters);
    }

    /** Runs a parsed statement; {@code plan} gives a query's or DML statement's plan in the statement's snapshot. */
    private StatementResult run(ParsedStatement statement, Function<CatalogSnapshot, PlannedStatement> plan, List<Object> parameters) {
        return switch (statement.kind()) {
            case DDL -> ddl.run(statement.ddl(), parameters);
            case SET -> settings.run(statement.setOption());
            case QUERY -> inSnapshot(snapshot -> queries.run(plan.apply(snapshot), statement.explain(), parameters, snapshot));
            case INSERT, UPDATE, DELETE -> inSnapshot(snapshot -> dml.run(plan.apply(snapshot), statement.explain(), parameters, snapshot));
        };
    }

    private StatementResult intercept(String sql, List<Object> parameters) {
        StatementInterceptor interceptor = session.interceptor();
        return interceptor == null ? null : interceptor.intercept(session, sql, parameters);
    }

    /**
     * Runs {@code body} on a snapshot of the catalog taken now. A query result (rows or EXPLAIN's
     * lines) takes the snapshot over and releases it when closed; otherwise (an update count, or
     * null for nothing run) it is released here.
     */
    private StatementResult inSnapshot(Function<CatalogSnapshot, StatementResult> body) {
        CatalogSnapshot snapshot = database.catalog().snapshot();
        try {
            StatementResult result = body.apply(snapshot);
            if (result != null && result.isQuery()) {
                snapshot = null;
            }
            return result;
        } finally {
            if (snapshot != null) {
                snapshot.close();
            }
        }
    }
}
