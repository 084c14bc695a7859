package io.warpdb.sql;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.CatalogSnapshot;
import java.util.List;

/**
 * EXPLAIN and EXPLAIN ANALYZE of a query's or DML statement's core plan: a result of one
 * VARCHAR column PLAN, a row per line, each node with the executor it runs on.
 */
final class ExplainRunner {
    private static final DataType LINE = DataType.VARCHAR.withNullable(false);
    /** The result's columns. */
    static final Schema SCHEMA = Schema.of(new Field("PLAN", LINE));

    private final PlanExecution execution;

    ExplainRunner(PlanExecution execution) {
        this.execution = execution;
    }

    /** The plan as placed now; nothing runs. The result owns the snapshot. */
    StatementResult explain(PlanNode plan, CatalogSnapshot snapshot) {
        return planLines(execution.place(plan).explain(plan), snapshot);
    }

    /** Runs the query to its end, discarding its rows, then shows the plan with what each node did. The result owns the snapshot. */
    StatementResult analyze(PlanNode plan, CatalogSnapshot snapshot) {
        Placement placement = execution.place(plan);
        ExecContext finished = execution.runToEnd(plan, placement, (stream, context) -> {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                b.close();
                context.checkCancelled();
            }
            return context;
        });
        return planLines(placement.explainAnalyzed(plan, finished::stats), snapshot);
    }

    private StatementResult planLines(List<String> lines, CatalogSnapshot snapshot) {
        List<List<Literal>> rows = lines.stream().map(line -> List.of(new Literal(line, LINE))).toList();
        return execution.stream(new ValuesNode(SCHEMA, rows), SCHEMA, snapshot);
    }
}
