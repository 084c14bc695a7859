package io.warpdb.sql;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.LoadOptions;
import io.warpdb.ingest.Loader;
import io.warpdb.sql.PlanCache.Planned;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.sql.calcite.TypeMapping;
import io.warpdb.sql.ddl.DdlParser;
import io.warpdb.sql.ddl.DdlStatement;
import io.warpdb.sql.translate.ColumnPruner;
import io.warpdb.sql.system.CounterTable;
import io.warpdb.sql.translate.PlanTranslator;
import io.warpdb.storage.CatalogSnapshot;
import io.warpdb.storage.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.SqlUpdate;

/**
 * Runs one statement of a session: EXPLAIN, DDL, SET, INSERT, DELETE, UPDATE or a query.
 * Planning goes through Calcite; every row comes from a WarpDB executor. Each statement reads
 * one catalog snapshot, released when the statement (for a query: its result) is closed.
 */
final class StatementRunner {
    /** EXPLAIN [ANALYZE | PLAN FOR]; blanked rather than cut so that error positions stay right. */
    private static final Pattern EXPLAIN = Pattern.compile("^\\s*EXPLAIN\\s+((ANALYZE)\\s+|PLAN\\s+FOR\\s+)?", Pattern.CASE_INSENSITIVE);
    private static final int ANALYZE_GROUP = 2;

    private final Session session;
    private final Database database;

    StatementRunner(Session session) {
        this.session = session;
        this.database = session.database();
    }

    StatementResult run(String sql, List<Object> parameters) {
        Matcher explain = EXPLAIN.matcher(sql);
        boolean isExplain = explain.find();
        boolean isAnalyze = isExplain && explain.group(ANALYZE_GROUP) != null;
        String text = isExplain ? " ".repeat(explain.end()) + sql.substring(explain.end()) : sql;
        DdlStatement ddl = DdlParser.parse(text);
        if (ddl != null) {
            if (isExplain) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN applies to queries and DML only");
            }
            return StatementResult.update(runDdl(ddl, parameters));
        }
        CatalogSnapshot snapshot = database.catalog().snapshot();
        try {
            PlanCache cache = session.planCacheEnabled() ? database.planCache() : null;
            String cacheKey = text.strip();
            Planned cached = cache == null ? null : cache.get(cacheKey, parameters, snapshot);
            if (cached != null) {
                StatementResult result = runQuery(cached, isExplain, isAnalyze, snapshot);
                snapshot = null; // the result releases it
                return result;
            }
            SqlNode node = new CalcitePlanner(snapshot, null).parse(text);
            if (node.getKind() == SqlKind.SET_OPTION) {
                return set((SqlSetOption) node);
            }
            Dml dml = switch (node.getKind()) {
                case INSERT -> planInsert(snapshot, node, parameters);
                case DELETE -> planDelete(snapshot, (SqlDelete) node, parameters);
                case UPDATE -> planUpdate(snapshot, (SqlUpdate) node, parameters);
                default -> null;
            };
            if (dml != null) {
                if (isAnalyze) {
                    throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN ANALYZE applies to queries only");
                }
                return isExplain ? explain(dml.plan, snapshot) : StatementResult.update(dml.apply.apply(this));
            }
            if (!node.isA(SqlKind.QUERY)) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, node.getKind() + " statements are not supported yet");
            }
            Planned query = planQuery(new CalcitePlanner(snapshot, null, CounterTable.of(database.catalog())), node, parameters);
            if (cache != null) {
                cache.put(cacheKey, parameters, snapshot, query);
            }
            StatementResult result = runQuery(query, isExplain, isAnalyze, snapshot);
            snapshot = null; // the result releases it
            return result;
        } finally {
            if (snapshot != null) {
                snapshot.close();
            }
        }
    }

    private StatementResult runQuery(Planned query, boolean isExplain, boolean isAnalyze, CatalogSnapshot snapshot) {
        return isAnalyze ? explainAnalyze(query.plan(), snapshot) : isExplain ? explain(query.plan(), snapshot) : execute(query, snapshot);
    }

    PreparedInfo prepare(String sql) {
        if (EXPLAIN.matcher(sql).find()) {
            return new PreparedInfo(sql, List.of(), Schema.of(new Field("PLAN", DataType.VARCHAR)));
        }
        if (DdlParser.parse(sql) != null) {
            return new PreparedInfo(sql, List.of(), null);
        }
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            CalcitePlanner planner = new CalcitePlanner(snapshot, null, CounterTable.of(database.catalog()));
            SqlNode node = planner.parse(sql);
            if (node.getKind() == SqlKind.SET_OPTION) {
                return new PreparedInfo(sql, List.of(), null);
            }
            if (node instanceof SqlDelete || node instanceof SqlUpdate) {
                planner = new CalcitePlanner(snapshot, targetName(node));
            }
            SqlNode validated = planner.validate(node);
            List<DataType> parameterTypes = new ArrayList<>();
            for (var f : planner.parameterRowType(validated).getFieldList()) {
                parameterTypes.add(TypeMapping.toDataType(f.getType()));
            }
            Schema result = validated.isA(SqlKind.QUERY) ? resultSchema(planner.toRel(validated)) : null;
            return new PreparedInfo(sql, parameterTypes, result);
        }
    }

    /** A planned INSERT, DELETE or UPDATE: the plan producing its rows and how to commit them. */
    private record Dml(PlanNode plan, Function<StatementRunner, Long> apply) {
    }

    private static Schema resultSchema(RelRoot root) {
        return TypeMapping.toSchema(root.validatedRowType, root.validatedRowType.getFieldNames());
    }

    private static PlanNode translate(CalcitePlanner planner, RelNode rel, List<Object> parameters) {
        return ColumnPruner.prune(new PlanTranslator(planner.rexBuilder(), parameters).translate(planner.optimize(rel)));
    }

    private Planned planQuery(CalcitePlanner planner, SqlNode node, List<Object> parameters) {
        RelRoot root = planner.toRel(planner.validate(node));
        return new Planned(translate(planner, root.project(), parameters), resultSchema(root));
    }

    private Table table(String name) {
        return database.catalog().table(name)
                .orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " does not exist"));
    }

    private static String targetName(SqlNode node) {
        SqlNode target = node instanceof SqlDelete d ? d.getTargetTable() : ((SqlUpdate) node).getTargetTable();
        List<String> names = ((SqlIdentifier) target).names;
        return names.get(names.size() - 1);
    }

    private TableModify modify(CalcitePlanner planner, SqlNode node) {
        return (TableModify) planner.toRel(planner.validate(node)).rel;
    }

    private Dml planInsert(CatalogSnapshot snapshot, SqlNode node, List<Object> parameters) {
        CalcitePlanner planner = new CalcitePlanner(snapshot, null);
        List<String> target = ((SqlIdentifier) ((SqlInsert) node).getTargetTable()).names;
        Optional<Table> named = database.catalog().table(target.get(target.size() - 1));
        if (named.isPresent()) {
            InsertChecks.checkStringLengths((SqlInsert) node, named.get().schema());
        }
        TableModify modify = modify(planner, node);
        List<String> name = modify.getTable().getQualifiedName();
        Table table = table(name.get(name.size() - 1));
        PlanNode plan = translate(planner, modify.getInput(), parameters);
        return new Dml(plan, r -> r.run(plan, table::append));
    }

    /** DELETE: the plan yields the rows to delete with their row id last; only the ids are kept. */
    private Dml planDelete(CatalogSnapshot snapshot, SqlDelete node, List<Object> parameters) {
        String name = targetName(node);
        CalcitePlanner planner = new CalcitePlanner(snapshot, name);
        TableModify modify = modify(planner, node);
        PlanNode rows = translate(planner, modify.getInput(), parameters);
        PlanNode ids = rowIds(rows, rows.schema().size() - 1);
        Table table = table(name);
        TableSource source = snapshot.table(name).orElseThrow();
        return new Dml(ids, r -> r.run(ids, stream -> table.delete(source, stream)));
    }

    /**
     * UPDATE: the plan yields each changed row's old columns, its row id, then one new value per
     * SET column; one commit deletes the old rows and inserts the new ones.
     */
    private Dml planUpdate(CatalogSnapshot snapshot, SqlUpdate node, List<Object> parameters) {
        String name = targetName(node);
        CalcitePlanner planner = new CalcitePlanner(snapshot, name);
        TableModify modify = modify(planner, node);
        PlanNode rows = translate(planner, modify.getInput(), parameters);
        Table table = table(name);
        Schema schema = table.schema();
        int rowId = schema.size();
        List<Expr> newRow = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            DataType type = schema.type(c);
            int set = indexOfIgnoreCase(modify.getUpdateColumnList(), schema.field(c).name());
            Expr value = new ColumnRef(set < 0 ? c : rowId + 1 + set, rows.schema().type(set < 0 ? c : rowId + 1 + set));
            newRow.add(value.type().equals(type) ? value : Call.of(Op.CAST, type, value));
        }
        newRow.add(new ColumnRef(rowId, rows.schema().type(rowId)));
        // One pass yields each new row with the id of the row it replaces, split into two streams.
        PlanNode changes = new ProjectNode(rows, newRow, schema.concat(Schema.of(Table.ROW_ID_FIELD)));
        TableSource source = snapshot.table(name).orElseThrow();
        return new Dml(changes, r -> r.run(changes, stream -> replace(table, source, stream, rowId)));
    }

    /** Feeds the updated rows (columns before {@code rowId}) and the ids they replace to one commit. */
    private long replace(Table table, TableSource source, BatchStream changes, int rowId) {
        List<Batch> batches = new ArrayList<>();
        try {
            for (Batch b = changes.next(); b != null; b = changes.next()) {
                batches.add(b);
            }
            List<Integer> rowColumns = java.util.stream.IntStream.range(0, rowId).boxed().toList();
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

    private static PlanNode rowIds(PlanNode rows, int column) {
        return new ProjectNode(rows, List.of(new ColumnRef(column, rows.schema().type(column))),
                Schema.of(Table.ROW_ID_FIELD));
    }

    private static int indexOfIgnoreCase(List<String> names, String name) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private Placement place(PlanNode plan) {
        return Placement.of(plan, session.executor(), database.executors());
    }

    private ExecContext newContext(BufferAllocator allocator, Placement placement) {
        ExecContext context = new ExecContext(allocator, database.executors(), placement.executors(), placement.fallbacks());
        context.setParallelism(session.parallelism());
        context.setTimeout(session.queryTimeoutMillis());
        return context;
    }

    /** The allocator of one statement, limited to the session's memory limit. */
    private BufferAllocator statementAllocator(String name) {
        return database.allocator().newChildAllocator(name, 0, session.memoryLimit());
    }

    /** Arrow's allocation failure as the SQL error it is: the statement exceeded its memory limit. */
    private WarpException memoryLimitExceeded(OutOfMemoryException e) {
        return new WarpException(SqlState.OUT_OF_MEMORY, "the statement needs more memory than its limit of "
                + session.memoryLimit() + " bytes (SET memory_limit): " + e.getMessage(), e);
    }

    /**
     * The Java heap exhausted while the statement ran: its hash tables and evaluated columns live
     * on the heap, outside the Arrow memory {@code SET memory_limit} counts. The statement fails
     * with 53200; once it is closed its memory is garbage and the server goes on.
     */
    private static WarpException heapExhausted(OutOfMemoryError e) {
        return new WarpException(SqlState.OUT_OF_MEMORY,
                "the statement ran out of Java heap (" + e.getMessage() + "); give the server more (-Xmx) or the statement less data", e);
    }

    private StatementResult execute(Planned query, CatalogSnapshot snapshot) {
        Placement placement = place(query.plan());
        BufferAllocator allocator = statementAllocator("query");
        ExecContext context = newContext(allocator, placement);
        try {
            session.started(context);
            BatchStream stream = context.run(query.plan());
            return StatementResult.query(query.schema(), new StatementStream(stream, context, snapshot), allocator);
        } catch (RuntimeException | Error e) {
            session.finished(context);
            allocator.close();
            if (e instanceof OutOfMemoryError heap) {
                throw heapExhausted(heap);
            }
            throw e;
        }
    }

    /** Runs a plan and hands its stream to {@code commit} (which consumes it), e.g. an append. */
    private long run(PlanNode plan, Function<BatchStream, Long> commit) {
        return run(plan, place(plan), (stream, context) -> commit.apply(stream));
    }

    /**
     * Runs a placed plan to its end: {@code consume} gets the stream, which is closed (and its
     * statistics complete) once {@code consume} returns, and the context it runs in.
     */
    private <T> T run(PlanNode plan, Placement placement, BiFunction<BatchStream, ExecContext, T> consume) {
        try (BufferAllocator allocator = statementAllocator("statement")) {
            ExecContext context = newContext(allocator, placement);
            session.started(context);
            try (BatchStream stream = context.run(plan)) {
                return consume.apply(stream, context);
            } catch (OutOfMemoryException e) {
                throw memoryLimitExceeded(e);
            } catch (OutOfMemoryError e) {
                throw heapExhausted(e);
            } finally {
                session.finished(context);
            }
        }
    }

    private StatementResult explain(PlanNode plan, CatalogSnapshot snapshot) {
        return planLines(place(plan).explain(plan), snapshot);
    }

    /** Runs the query to its end, discarding its rows, then shows the plan with what each node did. */
    private StatementResult explainAnalyze(PlanNode plan, CatalogSnapshot snapshot) {
        Placement placement = place(plan);
        ExecContext finished = run(plan, placement, (stream, context) -> {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                b.close();
                context.checkCancelled();
            }
            return context;
        });
        return planLines(placement.explainAnalyzed(plan, finished::stats), snapshot);
    }

    /** EXPLAIN's result: one VARCHAR column PLAN, a row per line. */
    private StatementResult planLines(List<String> lines, CatalogSnapshot snapshot) {
        DataType text = DataType.VARCHAR.withNullable(false);
        List<List<Literal>> rows = lines.stream().map(line -> List.of(new Literal(line, text))).toList();
        Schema schema = Schema.of(new Field("PLAN", text));
        return execute(new Planned(new ValuesNode(schema, rows), schema), snapshot);
    }

    private long runDdl(DdlStatement ddl, List<Object> parameters) {
        if (ddl instanceof DdlStatement.DropTable drop) {
            if (ViewCatalog.exists(database.catalog(), drop.name())) {
                throw new WarpException(SqlState.DATATYPE_MISMATCH, drop.name() + " is a view; use DROP VIEW");
            }
            database.catalog().drop(drop.name(), drop.ifExists());
        } else if (ddl instanceof DdlStatement.DropView drop) {
            ViewCatalog.drop(database.catalog(), drop.name(), drop.ifExists());
        } else if (ddl instanceof DdlStatement.CreateView view) {
            createView(view);
        } else if (ddl instanceof DdlStatement.Copy copy) {
            List<Path> files = copy.files().stream().map(Path::of).toList();
            return new Loader(database.catalog(), database.allocator(), LoadOptions.of(copy.options()), Loader.Progress.NONE)
                    .load(copy.table(), files).rows();
        } else {
            DdlStatement.CreateTable create = (DdlStatement.CreateTable) ddl;
            if (ViewCatalog.exists(database.catalog(), create.name())) {
                throw new WarpException(SqlState.DUPLICATE_TABLE, "a view named " + create.name() + " already exists");
            }
            if (create.query() != null) {
                return createTableAs(create, parameters);
            }
            database.catalog().create(create.name(), create.schema(), create.ifNotExists());
        }
        return 0;
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
        try (CatalogSnapshot snapshot = database.catalog().snapshot()) {
            CalcitePlanner planner = new CalcitePlanner(snapshot, null);
            Planned query = planQuery(planner, planner.parse(create.query()), parameters);
            if (create.columnNames() != null && create.columnNames().size() != query.schema().size()) {
                throw new WarpException(SqlState.DATATYPE_MISMATCH, "CREATE TABLE names " + create.columnNames().size()
                        + " columns but the query returns " + query.schema().size());
            }
            List<Field> fields = new ArrayList<>();
            for (int i = 0; i < query.schema().size(); i++) {
                String name = create.columnNames() != null ? create.columnNames().get(i) : query.schema().field(i).name();
                fields.add(new Field(name, query.schema().type(i).withNullable(true)));
            }
            Table table = database.catalog().create(create.name(), new Schema(fields), false);
            try {
                return run(query.plan(), table::append);
            } catch (RuntimeException e) {
                database.catalog().drop(create.name(), true);
                throw e;
            }
        }
    }

    private StatementResult set(SqlSetOption option) {
        String name = option.getName().toString().toLowerCase(Locale.ROOT);
        SqlNode value = option.getValue();
        String text = value instanceof SqlCharStringLiteral s ? s.getValueAs(String.class)
                : value instanceof SqlIdentifier id ? id.toString() : String.valueOf(value);
        switch (name) {
            case "executor" -> session.setExecutor(text);
            case "parallelism" -> {
                try {
                    session.setParallelism(Integer.parseInt(text.trim()));
                } catch (NumberFormatException e) {
                    throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "parallelism must be a whole number, not '" + text + "'");
                }
            }
            case "memory_limit" -> session.setMemoryLimit(text);
            case "query_timeout" -> session.setQueryTimeout(text);
            case "plan_cache" -> session.setPlanCache(text);
            default -> throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                    "unknown setting '" + name + "'; settable: executor, parallelism, memory_limit, query_timeout, plan_cache");
        }
        return StatementResult.update(0);
    }

    /**
     * A query's stream as the session sees it: cancellable, and on close it tells the session
     * the statement is over and releases the catalog snapshot the query read.
     */
    private final class StatementStream implements BatchStream {
        private final BatchStream inner;
        private final ExecContext context;
        private final CatalogSnapshot snapshot;

        StatementStream(BatchStream inner, ExecContext context, CatalogSnapshot snapshot) {
            this.inner = inner;
            this.context = context;
            this.snapshot = snapshot;
        }

        @Override
        public Schema schema() {
            return inner.schema();
        }

        @Override
        public Batch next() {
            context.checkCancelled();
            try {
                return inner.next();
            } catch (OutOfMemoryException e) {
                throw memoryLimitExceeded(e);
            } catch (OutOfMemoryError e) {
                throw heapExhausted(e);
            }
        }

        @Override
        public void close() {
            try {
                inner.close();
            } finally {
                session.finished(context);
                snapshot.close();
            }
        }
    }
}
