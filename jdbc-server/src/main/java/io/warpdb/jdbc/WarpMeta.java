package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.sql.PreparedStatement;
import io.warpdb.sql.StatementResult;
import java.lang.reflect.Modifier;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaUtils;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.proto.Requests;
import org.apache.calcite.avatica.remote.ProtobufMeta;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * WarpDB's side of the Avatica protocol, the same for the embedded driver and the server:
 * connections map to {@link io.warpdb.sql.Session}s, statements to
 * {@link StatementResult}s read frame by frame. The embedded driver makes one per connection;
 * the server one for all its clients, so everything here is keyed by connection id and safe
 * to call from many threads.
 */
final class WarpMeta extends MetaImpl implements ProtobufMeta, AutoCloseable {
    /** Connection property naming the executor: {@code auto}, {@code cpu} or {@code gpu}. */
    static final String EXECUTOR = "executor";
    /** Connection property naming an embedded connection's database (set from the URL). */
    static final String DATABASE = "database";

    private final Function<Map<String, String>, Databases.Lease> databases;
    private final ErrorReporting errors;
    private final String defaultExecutor;
    private final StatementExecution execution;
    private final ServerConfig.QueryLimits limits;
    private final Map<String, ConnectionState> connections = new ConcurrentHashMap<>();

    private WarpMeta(AvaticaConnection connection, Function<Map<String, String>, Databases.Lease> databases,
            ErrorReporting errors, String defaultExecutor, StatementExecution execution, ServerConfig.QueryLimits limits) {
        super(connection);
        this.limits = limits;
        this.databases = databases;
        this.errors = errors;
        this.defaultExecutor = defaultExecutor;
        this.execution = execution;
    }

    /** The Meta of one embedded connection, whose database the {@link #DATABASE} property names. */
    static WarpMeta embedded(AvaticaConnection connection) {
        return new WarpMeta(connection, info -> Databases.shared().acquire(info.get(DATABASE)), ErrorReporting.EMBEDDED, null,
                StatementExecution.embedded(), ServerConfig.QueryLimits.NONE);
    }

    /**
     * The Meta behind a server: all its clients work on the configured database, start with its
     * executor, and run their statements by {@code execution} (the server's queue and query log,
     * which the server closes).
     */
    static WarpMeta server(ServerConfig config, StatementExecution execution) {
        return new WarpMeta(null, info -> Databases.shared().acquire(config.database()), ErrorReporting.SERVER, config.executor(),
                execution, config.queryLimits());
    }

    // ---- connections

    @Override
    public void openConnection(ConnectionHandle ch, Map<String, String> info) {
        // The remote client sends no map at all when it has no properties.
        Map<String, String> properties = info == null ? Map.of() : info;
        guarded(() -> connections.computeIfAbsent(ch.id,
                id -> new ConnectionState(id, databases.apply(properties), properties.getOrDefault(EXECUTOR, defaultExecutor),
                        limits)));
    }

    @Override
    public void closeConnection(ConnectionHandle ch) {
        ConnectionState c = connections.remove(ch.id);
        if (c != null) {
            guarded(() -> {
                c.close();
                return null;
            });
        }
    }

    @Override
    public ConnectionProperties connectionSync(ConnectionHandle ch, ConnectionProperties changes) {
        return connection(ch.id).properties();
    }

    /** Every statement commits as it completes (auto-commit is always on), so there is nothing to commit. */
    @Override
    public void commit(ConnectionHandle ch) {
        connection(ch.id);
    }

    /** With auto-commit always on there is never anything to roll back. */
    @Override
    public void rollback(ConnectionHandle ch) {
        connection(ch.id);
    }

    /** Closes every connection still open (the server's clients that never said goodbye). */
    @Override
    public void close() {
        for (String id : List.copyOf(connections.keySet())) {
            closeConnection(new ConnectionHandle(id));
        }
    }

    // ---- statements

    @Override
    public StatementHandle createStatement(ConnectionHandle ch) {
        return new StatementHandle(ch.id, connection(ch.id).newStatement(null).id, null);
    }

    @Override
    public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
        ConnectionState c = connection(ch.id);
        return guarded(() -> c.exclusive(null, () -> {
            PreparedStatement prepared = c.session().prepare(sql);
            StatementState statement = c.newStatement(prepared);
            return new StatementHandle(ch.id, statement.id, Signatures.of(sql, prepared.parameterTypes(), prepared.resultSchema()));
        }));
    }

    @SuppressWarnings("deprecation")
    @Override
    public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, PrepareCallback callback)
            throws NoSuchStatementException {
        return prepareAndExecute(h, sql, maxRowCount, AvaticaUtils.toSaturatedInt(maxRowCount), callback);
    }

    @Override
    public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
            PrepareCallback callback) throws NoSuchStatementException {
        ConnectionState c = connection(h.connectionId);
        StatementState statement = statement(c, h);
        // The callback hands the result to the in-process client (the server's does nothing).
        try {
            synchronized (callback.getMonitor()) {
                callback.clear();
            }
            MetaResultSet result = guarded(() -> run(c, statement, sql, List.of(),
                    () -> c.session().execute(sql, List.of()), maxRowCount, maxRowsInFirstFrame));
            synchronized (callback.getMonitor()) {
                callback.assign(result.signature, result.firstFrame, result.updateCount);
            }
            callback.execute();
            return new ExecuteResult(List.of(result));
        } catch (SQLException e) {
            throw new IllegalStateException("the client could not take the result", e);
        }
    }

    @SuppressWarnings("deprecation")
    @Override
    public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, long maxRowCount)
            throws NoSuchStatementException {
        return execute(h, parameterValues, AvaticaUtils.toSaturatedInt(maxRowCount));
    }

    @Override
    public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, int maxRowsInFirstFrame)
            throws NoSuchStatementException {
        ConnectionState c = connection(h.connectionId);
        StatementState statement = statement(c, h);
        PreparedStatement p = prepared(statement);
        return guarded(() -> new ExecuteResult(List.of(run(c, statement, p.sql(), p.parameterTypes(),
                () -> p.execute(ParameterValues.toJdbc(parameterValues)), -1, maxRowsInFirstFrame))));
    }

    @Override
    public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
            throws NoSuchStatementException {
        ConnectionState c = connection(h.connectionId);
        StatementState statement = statement(c, h);
        return guarded(() -> new ExecuteBatchResult(sqlCommands.stream()
                .mapToLong(sql -> update(c, statement, sql, () -> c.session().execute(sql, List.of()))).toArray()));
    }

    @Override
    public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValues)
            throws NoSuchStatementException {
        ConnectionState c = connection(h.connectionId);
        StatementState statement = statement(c, h);
        PreparedStatement p = prepared(statement);
        return guarded(() -> new ExecuteBatchResult(parameterValues.stream()
                .mapToLong(values -> update(c, statement, p.sql(), () -> p.execute(ParameterValues.toJdbc(values)))).toArray()));
    }

    /** The server's batches arrive in protobuf form. */
    @Override
    public ExecuteBatchResult executeBatchProtobuf(StatementHandle h, List<Requests.UpdateBatch> updateBatches)
            throws NoSuchStatementException {
        return executeBatch(h, updateBatches.stream()
                .map(batch -> batch.getParameterValuesList().stream().map(TypedValue::fromProto).toList())
                .toList());
    }

    @Override
    public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
            throws NoSuchStatementException, MissingResultsException {
        ConnectionState c = connection(h.connectionId);
        StatementState statement = statement(c, h);
        Frame frame = guarded(() -> c.exclusive(statement, () -> {
            ResultCursor cursor = statement.cursor();
            return cursor == null ? null : cursor.next(offset, fetchMaxRowCount);
        }));
        if (frame == null) {
            throw new MissingResultsException(h);
        }
        return frame;
    }

    /** Results are produced once and read forward; a client that lost its place cannot resume. */
    @Override
    public boolean syncResults(StatementHandle h, QueryState state, long offset) {
        throw errors.translate(new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                "a result cannot be resumed at row " + offset + "; run the statement again"));
    }

    @Override
    public void closeStatement(StatementHandle h) {
        ConnectionState c = connections.get(h.connectionId);
        if (c != null) {
            guarded(() -> {
                c.closeStatement(h.id);
                return null;
            });
        }
    }

    /**
     * Runs a statement by {@code execution} (its text, or a prepared statement's kept plan, with
     * the parameter values); a query's result stays open on {@code statement} for {@link #fetch}.
     */
    private MetaResultSet run(ConnectionState c, StatementState statement, String sql, List<DataType> parameterTypes,
            Supplier<StatementResult> execution, long maxRowCount, int firstFrameRows) {
        return this.execution.run(c, statement, sql, execution, result -> {
            if (!result.isQuery()) {
                try (result) {
                    return MetaResultSet.count(c.id, statement.id, result.updateCount());
                }
            }
            Signature signature = Signatures.of(sql, parameterTypes, result.schema());
            Frame first = statement.open(result, maxRowCount).next(0, firstFrameRows);
            return MetaResultSet.create(c.id, statement.id, false, signature, first);
        });
    }

    /** Runs one statement of a batch by {@code execution}, which must return an update count. */
    private long update(ConnectionState c, StatementState statement, String sql, Supplier<StatementResult> execution) {
        return this.execution.run(c, statement, sql, execution, result -> StatementExecution.updateCount(result, sql));
    }

    // ---- database metadata

    @Override
    public MetaResultSet getCatalogs(ConnectionHandle ch) {
        return metadata(ch, MetaCatalog.class, CatalogMetadata::catalogs);
    }

    @Override
    public MetaResultSet getSchemas(ConnectionHandle ch, String catalog, Pat schemaPattern) {
        return metadata(ch, MetaSchema.class, m -> m.schemas(catalog, schemaPattern));
    }

    @Override
    public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
            List<String> typeList) {
        return metadata(ch, MetaTable.class, m -> m.tables(catalog, schemaPattern, tableNamePattern, typeList));
    }

    @Override
    public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat tableNamePattern,
            Pat columnNamePattern) {
        return metadata(ch, MetaColumn.class, m -> m.columns(catalog, schemaPattern, tableNamePattern, columnNamePattern));
    }

    @Override
    public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog, String schema, String table) {
        return metadata(ch, CatalogMetadata.PrimaryKeyColumn.class, m -> m.primaryKeys(catalog, schema, table));
    }

    @Override
    public MetaResultSet getTableTypes(ConnectionHandle ch) {
        return metadata(ch, MetaTableType.class, CatalogMetadata::tableTypes);
    }

    @Override
    public MetaResultSet getFunctions(ConnectionHandle ch, String catalog, Pat schemaPattern, Pat functionNamePattern) {
        return metadata(ch, MetaFunction.class, m -> m.functions(functionNamePattern));
    }

    @Override
    public MetaResultSet getTypeInfo(ConnectionHandle ch) {
        return metadata(ch, MetaTypeInfo.class, CatalogMetadata::typeInfo);
    }

    /**
     * A metadata result in one frame, on a statement of its own that closes with the result set.
     * The row objects become lists, like query rows, because the server cannot send objects.
     */
    private <E> MetaResultSet metadata(ConnectionHandle ch, Class<E> rowClass, Function<CatalogMetadata, List<E>> rows) {
        ConnectionState c = connection(ch.id);
        return guarded(() -> c.exclusive(null, () -> {
            // The same public instance fields, in the same order, as fieldMetaData describes.
            List<java.lang.reflect.Field> fields = Arrays.stream(rowClass.getFields())
                    .filter(f -> !Modifier.isStatic(f.getModifiers())).toList();
            List<Object> lists = new ArrayList<>();
            for (E row : rows.apply(c.metadata())) {
                List<Object> values = new ArrayList<>(fields.size());
                for (java.lang.reflect.Field f : fields) {
                    values.add(fieldValue(f, row));
                }
                lists.add(values);
            }
            List<ColumnMetaData> columns = fieldMetaData(rowClass).columns;
            Signature signature = new Signature(columns, "", List.of(), Map.of(), CursorFactory.LIST, StatementType.SELECT);
            return MetaResultSet.create(ch.id, c.newStatement(null).id, true, signature, new Frame(0, true, lists));
        }));
    }

    private static Object fieldValue(java.lang.reflect.Field field, Object row) {
        try {
            return field.get(row);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("metadata field " + field + " is not readable", e);
        }
    }

    // ---- lookups and errors

    private ConnectionState connection(String id) {
        ConnectionState c = connections.get(id);
        if (c == null) {
            throw new NoSuchConnectionException(id);
        }
        return c;
    }

    private static StatementState statement(ConnectionState c, StatementHandle h) throws NoSuchStatementException {
        StatementState statement = c.statement(h.id);
        if (statement == null) {
            throw new NoSuchStatementException(h);
        }
        return statement;
    }

    private PreparedStatement prepared(StatementState statement) {
        if (statement.prepared == null) {
            throw errors.translate(new WarpException(SqlState.INVALID_SQL_STATEMENT,
                    "statement " + statement.id + " was not prepared; it has no SQL to execute"));
        }
        return statement.prepared;
    }

    /**
     * Runs {@code body}, turning every failure into an exception that carries its SQLSTATE to
     * the client. Errors count too: an assertion inside Calcite or a stack overflow in deeply
     * nested SQL fails the statement (XX000, logged with its stack) and, once the stack has
     * unwound and the statement's resources are closed, the server is as good as before.
     */
    private <T> T guarded(Supplier<T> body) {
        try {
            return body.get();
        } catch (Throwable e) {
            throw errors.translate(e);
        }
    }
}
