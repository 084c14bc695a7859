package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.LoadOptions;
import io.warpdb.ingest.Loader;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.sql.ddl.DdlStatement;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.CatalogSnapshot;
import io.warpdb.storage.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CREATE/DROP TABLE, CREATE/DROP VIEW and COPY: each changes the catalog in one commit. CREATE
 * TABLE ... AS plans and runs its query, and the table appears with all of its rows or not at all.
 */
final class DdlRunner {
    private final Database database;
    private final PlanExecution execution;

    DdlRunner(Session session, PlanExecution execution) {
        this.database = session.database();
        this.execution = execution;
    }

    /** Runs the statement; its result counts the rows it wrote (COPY, CREATE TABLE ... AS), else 0. */
    StatementResult run(DdlStatement ddl, List<Object> parameters) {
        return StatementResult.update(apply(ddl, parameters));
    }

    private long apply(DdlStatement ddl, List<Object> parameters) {
        Catalog catalog = database.catalog();
        if (ddl instanceof DdlStatement.DropTable drop) {
            if (ViewCatalog.exists(catalog, drop.name())) {
                throw new WarpException(SqlState.DATATYPE_MISMATCH, drop.name() + " is a view; use DROP VIEW");
            }
            TableProperties.dropTable(catalog, drop.name(), drop.ifExists());
        } else if (ddl instanceof DdlStatement.DropView drop) {
            ViewCatalog.drop(catalog, drop.name(), drop.ifExists());
        } else if (ddl instanceof DdlStatement.CreateIndex index) {
            checkIndexColumns(index);
        } else if (ddl instanceof DdlStatement.CreateView view) {
            createView(view);
        } else if (ddl instanceof DdlStatement.Copy copy) {
            List<Path> files = copy.files().stream().map(Path::of).toList();
            return new Loader(catalog, database.allocator(), LoadOptions.of(copy.options()), Loader.Progress.NONE)
                    .load(copy.table(), files).rows();
        } else {
            DdlStatement.CreateTable create = (DdlStatement.CreateTable) ddl;
            if (ViewCatalog.exists(catalog, create.name())) {
                throw new WarpException(SqlState.DUPLICATE_TABLE, "a view named " + create.name() + " already exists");
            }
            if (create.query() != null) {
                return createTableAs(create, parameters);
            }
            boolean exists = catalog.table(create.name()).isPresent();
            catalog.create(create.name(), create.schema(), create.ifNotExists());
            if (!exists) {
                ColumnDefaults.set(catalog, create.name(), create.defaults());
                PrimaryKeys.set(catalog, create.name(), create.primaryKey());
            }
        }
        return 0;
    }

    /** CREATE INDEX is informational: it only checks that the table and its columns exist. */
    private void checkIndexColumns(DdlStatement.CreateIndex index) {
        Table table = database.catalog().table(index.table())
                .orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + index.table() + " does not exist"));
        for (String column : index.columns()) {
            if (table.schema().fields().stream().noneMatch(f -> f.name().equalsIgnoreCase(column))) {
                throw new WarpException(SqlState.UNDEFINED_COLUMN, "column " + column + " of index " + index.name()
                        + " does not exist in " + index.table());
            }
        }
    }

    /** Checks the view's query now, so that a broken view is never stored. */
    private void createView(DdlStatement.CreateView view) {
        if (database.catalog().table(view.name()).isPresent()) {
            throw new WarpException(SqlState.DUPLICATE_TABLE, "a table named " + view.name() + " already exists");
        }
        String query = view.query().strip();
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            new CalcitePlanner(snapshot, null).viewRowType(query, view.columnNames());
        }
        ViewCatalog.create(database.catalog(), new ViewCatalog.View(view.name(), query, view.columnNames()), view.orReplace());
    }

    /** CREATE TABLE ... AS query: the table appears with all of the query's rows or not at all. */
    private long createTableAs(DdlStatement.CreateTable create, List<Object> parameters) {
        if (create.ifNotExists() && database.catalog().table(create.name()).isPresent()) {
            return 0;
        }
        ParsedStatement query = ParsedStatement.parse(create.query());
        if (query.kind() != StatementKind.QUERY || query.explain() != ParsedStatement.Explain.NONE) {
            throw new WarpException(SqlState.SYNTAX_ERROR, "CREATE TABLE ... AS takes a query, not " + query.kind());
        }
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            PlannedStatement planned = database.planner().plan(query, snapshot);
            PlanNode plan = planned.bind(parameters, snapshot);
            Schema schema = planned.resultSchema();
            if (create.columnNames() != null && create.columnNames().size() != schema.size()) {
                throw new WarpException(SqlState.DATATYPE_MISMATCH, "CREATE TABLE names " + create.columnNames().size()
                        + " columns but the query returns " + schema.size());
            }
            List<Field> fields = new ArrayList<>();
            for (int i = 0; i < schema.size(); i++) {
                String name = create.columnNames() != null ? create.columnNames().get(i) : schema.field(i).name();
                fields.add(new Field(name, schema.type(i).withNullable(true)));
            }
            Table table = database.catalog().create(create.name(), new Schema(fields), false);
            PrimaryKeys.set(database.catalog(), create.name(), List.of());
            try {
                return execution.runToEnd(plan, table::append);
            } catch (RuntimeException e) {
                database.catalog().drop(create.name(), true);
                throw e;
            }
        }
    }
}
