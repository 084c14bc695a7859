package io.warpdb.sql;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.calcite.CalcitePlanner;
import io.warpdb.sql.calcite.TypeMapping;
import io.warpdb.sql.ddl.DdlParser;
import io.warpdb.sql.ddl.DdlStatement;
import io.warpdb.sql.translate.ColumnPruner;
import io.warpdb.sql.translate.PlanTranslator;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;

/**
 * Runs one statement of a session: EXPLAIN, DDL, SET, INSERT or a query. Planning goes through
 * Calcite; every row comes from a WarpDB executor.
 */
final class StatementRunner {
    /** EXPLAIN [PLAN FOR]; blanked rather than cut so that error positions stay right. */
    private static final Pattern EXPLAIN = Pattern.compile("^\\s*EXPLAIN\\s+(PLAN\\s+FOR\\s+)?", Pattern.CASE_INSENSITIVE);

    private final Session session;
    private final Database database;

    StatementRunner(Session session) {
        this.session = session;
        this.database = session.database();
    }

    StatementResult run(String sql, List<Object> parameters) {
        Matcher explain = EXPLAIN.matcher(sql);
        boolean isExplain = explain.find();
        String text = isExplain ? " ".repeat(explain.end()) + sql.substring(explain.end()) : sql;
        DdlStatement ddl = DdlParser.parse(text);
        if (ddl != null) {
            if (isExplain) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN applies to queries and INSERT only");
            }
            return runDdl(ddl, parameters);
        }
        CalcitePlanner planner = new CalcitePlanner(database.catalog(), database.views());
        SqlNode node = planner.parse(text);
        if (node.getKind() == SqlKind.SET_OPTION) {
            return set((SqlSetOption) node);
        }
        if (node.getKind() == SqlKind.INSERT) {
            Insert insert = planInsert(planner, node, parameters);
            return isExplain ? explain(insert.plan) : StatementResult.update(insert(insert.table, insert.plan));
        }
        if (!node.isA(SqlKind.QUERY)) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, node.getKind() + " statements are not supported yet");
        }
        Query query = planQuery(planner, node, parameters);
        return isExplain ? explain(query.plan) : execute(query);
    }

    PreparedInfo prepare(String sql) {
        Matcher explain = EXPLAIN.matcher(sql);
        if (explain.find()) {
            return new PreparedInfo(sql, List.of(), Schema.of(new Field("PLAN", DataType.VARCHAR)));
        }
        if (DdlParser.parse(sql) != null) {
            return new PreparedInfo(sql, List.of(), null);
        }
        CalcitePlanner planner = new CalcitePlanner(database.catalog(), database.views());
        SqlNode node = planner.parse(sql);
        if (node.getKind() == SqlKind.SET_OPTION) {
            return new PreparedInfo(sql, List.of(), null);
        }
        SqlNode validated = planner.validate(node);
        List<DataType> parameterTypes = new ArrayList<>();
        for (var f : planner.parameterRowType(validated).getFieldList()) {
            parameterTypes.add(TypeMapping.toDataType(f.getType()));
        }
        Schema result = validated.isA(SqlKind.QUERY) ? resultSchema(planner.toRel(validated)) : null;
        return new PreparedInfo(sql, parameterTypes, result);
    }

    private record Query(PlanNode plan, Schema schema) {
    }

    private record Insert(Table table, PlanNode plan) {
    }

    private static Schema resultSchema(RelRoot root) {
        return TypeMapping.toSchema(root.validatedRowType, root.validatedRowType.getFieldNames());
    }

    private Query planQuery(CalcitePlanner planner, SqlNode node, List<Object> parameters) {
        RelRoot root = planner.toRel(planner.validate(node));
        RelNode rel = planner.optimize(root.project());
        PlanNode plan = ColumnPruner.prune(new PlanTranslator(planner.rexBuilder(), parameters).translate(rel));
        return new Query(plan, resultSchema(root));
    }

    private Insert planInsert(CalcitePlanner planner, SqlNode node, List<Object> parameters) {
        RelRoot root = planner.toRel(planner.validate(node));
        TableModify modify = (TableModify) root.rel;
        List<String> name = modify.getTable().getQualifiedName();
        Table table = database.catalog().table(name.get(name.size() - 1))
                .orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " does not exist"));
        RelNode rel = planner.optimize(modify.getInput());
        return new Insert(table, ColumnPruner.prune(new PlanTranslator(planner.rexBuilder(), parameters).translate(rel)));
    }

    private StatementResult execute(Query query) {
        Placement placement = Placement.of(query.plan, session.executor(), database.executors());
        BufferAllocator allocator = database.allocator().newChildAllocator("query", 0, Long.MAX_VALUE);
        ExecContext context = new ExecContext(allocator);
        try {
            session.started(context);
            BatchStream stream = placement.executor().execute(query.plan, context);
            return StatementResult.query(query.schema, new SessionTrackedStream(stream, context), allocator);
        } catch (RuntimeException e) {
            session.finished(context);
            allocator.close();
            throw e;
        }
    }

    /** Runs the plan and appends its rows to the table in one atomic commit. */
    private long insert(Table table, PlanNode plan) {
        Placement placement = Placement.of(plan, session.executor(), database.executors());
        try (BufferAllocator allocator = database.allocator().newChildAllocator("insert", 0, Long.MAX_VALUE)) {
            ExecContext context = new ExecContext(allocator);
            session.started(context);
            try (BatchStream stream = placement.executor().execute(plan, context)) {
                return table.append(stream);
            } finally {
                session.finished(context);
            }
        }
    }

    private StatementResult explain(PlanNode plan) {
        Placement placement = Placement.of(plan, session.executor(), database.executors());
        DataType text = DataType.VARCHAR.withNullable(false);
        List<List<Literal>> rows = placement.explain(plan).stream().map(line -> List.of(new Literal(line, text))).toList();
        Schema schema = Schema.of(new Field("PLAN", text));
        return execute(new Query(new ValuesNode(schema, rows), schema));
    }

    private StatementResult runDdl(DdlStatement ddl, List<Object> parameters) {
        if (ddl instanceof DdlStatement.DropTable drop) {
            if (database.views().view(drop.name()).isPresent()) {
                throw new WarpException(SqlState.DATATYPE_MISMATCH, drop.name() + " is a view; use DROP VIEW");
            }
            database.catalog().drop(drop.name(), drop.ifExists());
            return StatementResult.update(0);
        }
        if (ddl instanceof DdlStatement.DropView drop) {
            database.views().drop(drop.name(), drop.ifExists());
            return StatementResult.update(0);
        }
        if (ddl instanceof DdlStatement.CreateView view) {
            return createView(view);
        }
        DdlStatement.CreateTable create = (DdlStatement.CreateTable) ddl;
        if (database.views().view(create.name()).isPresent()) {
            throw new WarpException(SqlState.DUPLICATE_TABLE, "a view named " + create.name() + " already exists");
        }
        if (create.query() == null) {
            database.catalog().create(create.name(), create.schema(), create.ifNotExists());
            return StatementResult.update(0);
        }
        return createTableAs(create, parameters);
    }

    /** Checks the view's query now, so that a broken view is never stored. */
    private StatementResult createView(DdlStatement.CreateView view) {
        if (database.catalog().table(view.name()).isPresent()) {
            throw new WarpException(SqlState.DUPLICATE_TABLE, "a table named " + view.name() + " already exists");
        }
        String query = view.query().strip();
        new CalcitePlanner(database.catalog(), database.views()).viewRowType(query, view.columnNames());
        database.views().create(new ViewCatalog.View(view.name(), query, view.columnNames()), view.orReplace());
        return StatementResult.update(0);
    }

    /** CREATE TABLE ... AS query: the table appears with all of the query's rows or not at all. */
    private StatementResult createTableAs(DdlStatement.CreateTable create, List<Object> parameters) {
        if (create.ifNotExists() && database.catalog().table(create.name()).isPresent()) {
            return StatementResult.update(0);
        }
        CalcitePlanner planner = new CalcitePlanner(database.catalog(), database.views());
        Query query = planQuery(planner, planner.parse(create.query()), parameters);
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < query.schema.size(); i++) {
            String name = create.columnNames() != null ? create.columnNames().get(i) : query.schema.field(i).name();
            fields.add(new Field(name, query.schema.type(i).withNullable(true)));
        }
        if (create.columnNames() != null && create.columnNames().size() != query.schema.size()) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, "CREATE TABLE names " + create.columnNames().size()
                    + " columns but the query returns " + query.schema.size());
        }
        Table table = database.catalog().create(create.name(), new Schema(fields), false);
        try {
            return StatementResult.update(insert(table, query.plan));
        } catch (RuntimeException e) {
            database.catalog().drop(create.name(), true);
            throw e;
        }
    }

    private StatementResult set(SqlSetOption option) {
        String name = option.getName().toString().toLowerCase(Locale.ROOT);
        SqlNode value = option.getValue();
        String text = value instanceof SqlCharStringLiteral s ? s.getValueAs(String.class)
                : value instanceof SqlIdentifier id ? id.toString() : String.valueOf(value);
        if (!name.equals("executor")) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "unknown setting '" + name + "'; settable: executor");
        }
        session.setExecutor(text);
        return StatementResult.update(0);
    }

    /** Tells the session when its statement's stream is done, so cancel() targets the right one. */
    private final class SessionTrackedStream implements BatchStream {
        private final BatchStream inner;
        private final ExecContext context;

        SessionTrackedStream(BatchStream inner, ExecContext context) {
            this.inner = inner;
            this.context = context;
        }

        @Override
        public Schema schema() {
            return inner.schema();
        }

        @Override
        public Batch next() {
            context.checkCancelled();
            return inner.next();
        }

        @Override
        public void close() {
            try {
                inner.close();
            } finally {
                session.finished(context);
            }
        }
    }
}
