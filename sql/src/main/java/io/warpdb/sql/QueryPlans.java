package io.warpdb.sql;

import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.CatalogSnapshot;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A query's core plan for callers that run parts of it elsewhere (a cluster's coordinator and
 * its shards): planned as the session's database plans it, and run after changes to it.
 */
public final class QueryPlans {
    /** A query's plan, bound to its parameter values, and its labelled result columns. */
    public record QueryPlan(PlanNode plan, Schema schema) {
    }

    private QueryPlans() {
    }

    /**
     * The plan of {@code sql} when it is a query (not EXPLAIN, not DML or DDL), over the database's
     * current tables; from the database's plan cache when the session uses it, as a statement's run
     * takes it (a cluster's shards plan the query's text once per fragment, each on the critical path).
     */
    public static Optional<QueryPlan> of(Session session, String sql, List<Object> parameters) {
        return of(session, sql, parameters, null);
    }

    /**
     * As {@link #of(Session, String, List)}, planned from {@code pinned}'s statistics of the tables it
     * holds instead of their own (null: their own), as another node planned it ({@link PinnedStatistics}).
     */
    public static Optional<QueryPlan> of(Session session, String sql, List<Object> parameters, PinnedStatistics pinned) {
        Database database = session.database();
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            PlanCache.Planned planned = session.planCacheEnabled() ? database.planCache().get(sql.strip(), parameters, pinned, snapshot) : null;
            if (planned == null) {
                ParsedStatement statement = ParsedStatement.parse(sql);
                if (statement.kind() != StatementKind.QUERY || statement.explain() != ParsedStatement.Explain.NONE) {
                    return Optional.empty();
                }
                planned = QueryRunner.plan(session, statement, parameters, pinned, snapshot);
            }
            return planned.explain() == ParsedStatement.Explain.NONE ? Optional.of(new QueryPlan(planned.plan(), planned.schema()))
                    : Optional.empty();
        }
    }

    /**
     * Runs {@code plan} in {@code session}: its scans of the database's tables read the current
     * snapshot (found by name); other scans, of sources that no catalog holds, read what they
     * hold. The result streams the rows of {@code schema}.
     */
    public static StatementResult run(Session session, PlanNode plan, Schema schema) {
        return run(session, SnapshotBinding::rebind, plan, schema);
    }

    /** EXPLAIN's lines for {@code plan}: each node with the executor it would run on in {@code session}. */
    public static List<String> explain(Session session, PlanNode plan) {
        return new PlanExecution(session).place(plan).explain(plan);
    }

    /** A result of EXPLAIN's one column holding {@code lines}. */
    public static StatementResult lines(Session session, List<String> lines) {
        List<List<Literal>> rows = lines.stream().map(line -> List.of(new Literal(line, ExplainRunner.SCHEMA.type(0)))).toList();
        return run(session, (plan, snapshot) -> plan, new ValuesNode(ExplainRunner.SCHEMA, rows), ExplainRunner.SCHEMA);
    }

    private static StatementResult run(Session session, BiFunction<PlanNode, CatalogSnapshot, PlanNode> bind, PlanNode plan,
            Schema schema) {
        CatalogSnapshot snapshot = session.database().catalog().snapshot();
        try {
            return new PlanExecution(session).stream(bind.apply(plan, snapshot), schema, snapshot);
        } catch (RuntimeException e) {
            snapshot.close();
            throw e;
        }
    }
}
