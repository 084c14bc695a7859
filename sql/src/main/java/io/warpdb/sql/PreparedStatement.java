package io.warpdb.sql;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.CatalogSnapshot;
import java.util.List;

/**
 * A statement of a session prepared once and run many times. Preparing classifies and parses it,
 * and plans a query or DML statement: what a client learns before it runs (the types of its
 * {@code ?} parameters and a query's result columns) comes from that plan. Each run binds its
 * parameter values to the kept plan; once a commit (DDL, a load, DML) has made a new catalog
 * version, the next run plans the text again against the tables as they are then, and keeps
 * that plan. One run at a time, like every statement of a session.
 */
public final class PreparedStatement {
    private final StatementRunner runner;
    private final ParsedStatement statement;
    private final List<DataType> parameterTypes;
    private final Schema resultSchema;
    /** The kept plan of a query or DML statement; null for DDL and SET, which run their parse tree. */
    private PlannedStatement plan;

    PreparedStatement(StatementRunner runner, ParsedStatement statement, PlannedStatement plan) {
        this.runner = runner;
        this.statement = statement;
        this.plan = plan;
        this.parameterTypes = plan == null ? List.of() : plan.parameterTypes();
        this.resultSchema = statement.explain() != ParsedStatement.Explain.NONE ? ExplainRunner.SCHEMA
                : statement.kind() == StatementKind.QUERY ? plan.resultSchema() : null;
    }

    public String sql() {
        return statement.sql();
    }

    /** The types of the {@code ?} parameters, in order. */
    public List<DataType> parameterTypes() {
        return parameterTypes;
    }

    /** A query's (or EXPLAIN's) result columns; null for other statements. */
    public Schema resultSchema() {
        return resultSchema;
    }

    public boolean isQuery() {
        return resultSchema != null;
    }

    /**
     * Runs the statement with {@code parameters} bound to its {@code ?} markers in order, as
     * {@link Session#execute(String, List)} takes them.
     */
    public StatementResult execute(List<Object> parameters) {
        return runner.run(this, parameters);
    }

    ParsedStatement statement() {
        return statement;
    }

    /** The plan for a run in {@code snapshot}: the kept one while its catalog version is current, else a new one, kept from then on. */
    PlannedStatement planIn(CatalogSnapshot snapshot, StatementPlanner planner) {
        if (!plan.isCurrentIn(snapshot)) {
            plan = planner.plan(ParsedStatement.parse(statement.sql()), snapshot);
        }
        return plan;
    }
}
