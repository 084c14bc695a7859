package io.warpdb.sql;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.ParsedStatement.Explain;
import io.warpdb.storage.CatalogSnapshot;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import org.apache.calcite.rel.core.TableModify;

/**
 * INSERT, UPDATE and DELETE: binds the planned statement to its parameter values, runs the plan
 * of the rows it changes and commits them to the target table in one commit; or explains that
 * plan.
 */
final class DmlRunner {
    private final Session session;
    private final PlanExecution execution;
    private final ExplainRunner explainer;

    DmlRunner(Session session, PlanExecution execution, ExplainRunner explainer) {
        this.session = session;
        this.execution = execution;
        this.explainer = explainer;
    }

    /** Runs (the rows written) or explains (the result then owns the snapshot) the statement. */
    StatementResult run(PlannedStatement statement, Explain explain, List<Object> parameters, CatalogSnapshot snapshot) {
        Dml dml = bind(statement, parameters, snapshot);
        return explain == Explain.PLAN ? explainer.explain(dml.plan, snapshot) : StatementResult.update(dml.commit.getAsLong());
    }

    /** A bound INSERT, DELETE or UPDATE: the plan producing its rows and how to commit them. */
    private record Dml(PlanNode plan, LongSupplier commit) {
    }

    private Dml bind(PlannedStatement statement, List<Object> parameters, CatalogSnapshot snapshot) {
        TableModify modify = statement.modify();
        List<String> name = modify.getTable().getQualifiedName();
        String tableName = name.get(name.size() - 1);
        Table table = session.database().catalog().table(tableName)
                .orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + tableName + " does not exist"));
        PlanNode rows = statement.bind(parameters, snapshot);
        return switch (statement.kind()) {
            case INSERT -> new Dml(rows, () -> execution.runToEnd(rows, table::append));
            case DELETE -> delete(table, snapshot.table(tableName).orElseThrow(), rows);
            case UPDATE -> update(table, snapshot.table(tableName).orElseThrow(), rows, modify.getUpdateColumnList());
            default -> throw new IllegalArgumentException(statement.kind() + " is not DML");
        };
    }

    /** DELETE: the plan yields the rows to delete with their row id last; only the ids are kept. */
    private Dml delete(Table table, TableSource source, PlanNode rows) {
        int rowId = rows.schema().size() - 1;
        PlanNode ids = new ProjectNode(rows, List.of(new ColumnRef(rowId, rows.schema().type(rowId))), Schema.of(Table.ROW_ID_FIELD));
        return new Dml(ids, () -> execution.runToEnd(ids, stream -> table.delete(source, stream)));
    }

    /**
     * UPDATE: the plan yields each changed row's old columns, its row id, then one new value per
     * SET column; one commit deletes the old rows and inserts the new ones.
     */
    private Dml update(Table table, TableSource source, PlanNode rows, List<String> setColumns) {
        Schema schema = table.schema();
        int rowId = schema.size();
        List<Expr> newRow = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            DataType type = schema.type(c);
            int set = indexOfIgnoreCase(setColumns, schema.field(c).name());
            Expr value = new ColumnRef(set < 0 ? c : rowId + 1 + set, rows.schema().type(set < 0 ? c : rowId + 1 + set));
            newRow.add(value.type().equals(type) ? value : Call.of(Op.CAST, type, value));
        }
        newRow.add(new ColumnRef(rowId, rows.schema().type(rowId)));
        // One pass yields each new row with the id of the row it replaces, split into two streams.
        PlanNode changes = new ProjectNode(rows, newRow, schema.concat(Schema.of(Table.ROW_ID_FIELD)));
        return new Dml(changes, () -> execution.runToEnd(changes, stream -> replace(table, source, stream, rowId)));
    }

    /** Feeds the updated rows (columns before {@code rowId}) and the ids they replace to one commit. */
    private static long replace(Table table, TableSource source, BatchStream changes, int rowId) {
        List<Batch> batches = new ArrayList<>();
        try {
            for (Batch b = changes.next(); b != null; b = changes.next()) {
                batches.add(b);
            }
            List<Integer> rowColumns = IntStream.range(0, rowId).boxed().toList();
            List<Batch> ids = batches.stream().map(b -> b.project(List.of(rowId), b.vector(rowId).getAllocator())).toList();
            List<Batch> rows = batches.stream().map(b -> b.project(rowColumns, b.vector(rowId).getAllocator())).toList();
            try (BatchStream idStream = Batches.of(Schema.of(Table.ROW_ID_FIELD), ids);
                    BatchStream rowStream = Batches.of(table.schema(), rows)) {
                return table.replace(source, idStream, rowStream).inserted();
            }
        } finally {
            batches.forEach(Batch::close);
        }
    }

    private static int indexOfIgnoreCase(List<String> names, String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
