package io.warpdb.jdbc;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.PreparedStatement;
import io.warpdb.sql.StatementResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.BasicFlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;

/**
 * WarpDB's Arrow Flight SQL producer: the same sessions ({@link ConnectionState}), statement
 * path ({@link StatementExecution}: queue, query log, per-query limits) and catalog metadata as
 * the Avatica server, with results sent as Arrow record batches made column-wise from the
 * executors' batches ({@link FlightBatches}). A query runs when the client asks for its
 * FlightInfo (so that errors come back there) and its result stays open on its statement until
 * the client reads the one endpoint's stream; closing or cancelling the statement closes it.
 */
final class FlightSqlService extends BasicFlightSqlProducer implements AutoCloseable {
    private final FlightSessions sessions;
    private final StatementExecution execution;
    private final BufferAllocator allocator;
    private final SqlInfoBuilder sqlInfo;

    FlightSqlService(FlightSessions sessions, StatementExecution execution, BufferAllocator allocator, String version) {
        this.sessions = sessions;
        this.execution = execution;
        this.allocator = allocator;
        this.sqlInfo = new SqlInfoBuilder()
                .withFlightSqlServerName("WarpDB")
                .withFlightSqlServerVersion(version)
                .withFlightSqlServerArrowVersion(org.apache.arrow.vector.types.pojo.Schema.class.getPackage().getImplementationVersion())
                .withFlightSqlServerSql(true)
                .withFlightSqlServerSubstrait(false)
                .withFlightSqlServerReadOnly(false)
                .withFlightSqlServerCancel(true)
                .withFlightSqlServerBulkIngestion(true)
                .withFlightSqlServerTransaction(FlightSql.SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
                .withSqlTransactionsSupported(false)
                .withSqlIdentifierQuoteChar("\"")
                .withSqlSchemaTerm("schema")
                .withSqlCatalogTerm("database")
                .withSqlDdlCatalog(false)
                .withSqlDdlSchema(false)
                .withSqlDdlTable(true)
                .withSqlSupportsColumnAliasing(true)
                .withSqlCorrelatedSubqueriesSupported(true)
                .withSqlBatchUpdatesSupported(true);
    }

    /** A statement of a session, as a handle or ticket names it: {@code <session id>/<statement id>}. */
    private record Handle(ConnectionState connection, StatementState statement) {
        ByteString bytes() {
            return ByteString.copyFromUtf8(connection.id + "/" + statement.id);
        }
    }

    private Handle handle(ByteString bytes) {
        Handle h = openHandle(bytes);
        if (h == null) {
            throw new WarpException(SqlState.INVALID_SQL_STATEMENT, "statement " + bytes.toStringUtf8() + " is closed");
        }
        return h;
    }

    /** The statement of a handle, or null when its statement is closed. */
    private Handle openHandle(ByteString bytes) {
        String text = bytes.toStringUtf8();
        int slash = text.lastIndexOf('/');
        if (slash < 0) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "not a WarpDB statement handle: " + text);
        }
        ConnectionState c = sessions.existing(text.substring(0, slash));
        StatementState s = c.statement(Integer.parseInt(text.substring(slash + 1)));
        return s == null ? null : new Handle(c, s);
    }

    // ---- statements

    @Override
    public void createPreparedStatement(FlightSql.ActionCreatePreparedStatementRequest request, CallContext context,
            StreamListener<Result> listener) {
        respond(listener, () -> {
            ConnectionState c = sessions.session(context);
            return c.exclusive(null, () -> {
                PreparedStatement prepared = c.session().prepare(request.getQuery());
                Handle h = new Handle(c, c.newStatement(prepared));
                Schema result = prepared.isQuery() ? prepared.resultSchema() : new Schema(List.of());
                org.apache.arrow.vector.types.pojo.Schema dataset = FlightBatches.arrowSchema(result,
                        FlightBatches.dictionaryColumns(result, null, FlightStrings.asDictionaries(context)));
                return new Result(Any.pack(FlightSql.ActionCreatePreparedStatementResult.newBuilder()
                        .setPreparedStatementHandle(h.bytes())
                        .setDatasetSchema(ByteString.copyFrom(dataset.serializeAsMessage()))
                        .setParameterSchema(ByteString.copyFrom(parameterSchema(prepared.parameterTypes()).serializeAsMessage()))
                        .build()).toByteArray());
            });
        });
    }

    private static org.apache.arrow.vector.types.pojo.Schema parameterSchema(List<DataType> types) {
        List<io.warpdb.core.types.Field> fields = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
            fields.add(new io.warpdb.core.types.Field("parameter_" + (i + 1), types.get(i).withNullable(true)));
        }
        return FlightBatches.arrowSchema(new Schema(fields));
    }

    @Override
    public void closePreparedStatement(FlightSql.ActionClosePreparedStatementRequest request, CallContext context,
            StreamListener<Result> listener) {
        try {
            Handle h = handle(request.getPreparedStatementHandle());
            h.connection.closeStatement(h.statement.id);
            listener.onCompleted();
        } catch (Throwable e) {
            listener.onError(ErrorReporting.FLIGHT.translate(e));
        }
    }

    /** A query of the client's session, run now; its result waits for the ticket's stream. */
    @Override
    public FlightInfo getFlightInfoStatement(FlightSql.CommandStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        return guarded(() -> {
            ConnectionState c = sessions.session(context);
            Handle h = new Handle(c, c.newStatement(null));
            String sql = command.getQuery();
            try {
                return query(h, context, descriptor, sql, () -> c.session().execute(sql, List.of()));
            } catch (RuntimeException e) {
                c.closeStatement(h.statement.id);
                throw e;
            }
        });
    }

    @Override
    public FlightInfo getFlightInfoPreparedStatement(FlightSql.CommandPreparedStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        return guarded(() -> {
            Handle h = handle(command.getPreparedStatementHandle());
            PreparedStatement p = h.statement.prepared;
            return query(h, context, descriptor, p.sql(), () -> p.execute(h.statement.parameters()));
        });
    }

    /** Runs a query for the FlightInfo call; the client cancelling the call cancels the query. */
    private FlightInfo query(Handle h, CallContext context, FlightDescriptor descriptor, String sql, Supplier<StatementResult> run) {
        // A new execution: a cancel of the one before does not reach it.
        h.statement.cancelled = false;
        org.apache.arrow.vector.types.pojo.Schema schema;
        try (FlightCallCancellation watch = FlightCallCancellation.watch(context, h.connection, h.statement)) {
            schema = execution.run(h.connection, h.statement, sql, run, result -> {
                h.statement.hold(result);
                if (!result.isQuery()) {
                    return FlightBatches.arrowSchema(new Schema(List.of()));
                }
                // As the stream will send it, which the first batch's dictionaries decide.
                return FlightBatches.arrowSchema(result.schema(),
                        FlightBatches.dictionaryColumns(result.schema(), h.statement.first(), FlightStrings.asDictionaries(context)));
            });
        }
        Ticket ticket = new Ticket(Any.pack(FlightSql.TicketStatementQuery.newBuilder().setStatementHandle(h.bytes()).build())
                .toByteArray());
        return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
    }

    /**
     * Streams a statement's held result. Each batch is pulled on the session's turn, as Avatica's
     * fetches are, so a statement closed or cancelled meanwhile ends the stream with its error.
     * A plain statement (not prepared) is closed once read.
     */
    @Override
    public void getStreamStatement(FlightSql.TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
        Handle h;
        try {
            h = handle(ticket.getStatementHandle());
        } catch (Throwable e) {
            listener.error(ErrorReporting.FLIGHT.translate(e));
            return;
        }
        ConnectionState c = h.connection;
        StatementState s = h.statement;
        // Also notices a client that cancelled the stream (its result is then closed below).
        BackpressureStrategy backpressure = new BackpressureStrategy.CallbackBackpressureStrategy();
        backpressure.register(listener);
        try (FlightCallCancellation watch = FlightCallCancellation.watch(context, c, s)) {
            StatementResult result = c.exclusive(s, s::held);
            Schema schema = result == null || !result.isQuery() ? new Schema(List.of()) : result.schema();
            try (FlightBatches out = new FlightBatches(schema, FlightStrings.asDictionaries(context), allocator)) {
                boolean more = result != null && result.isQuery() && c.exclusive(s, () -> out.load(s.takeFirst()));
                out.start(listener);
                boolean sent = false;
                while (more) {
                    if (out.rowCount() > 0) {
                        if (!ready(backpressure)) {
                            return;
                        }
                        out.send(listener);
                        sent = true;
                    }
                    more = c.exclusive(s, () -> out.load(result.batches().next()));
                }
                if (!sent) {
                    // The stock JDBC driver lists a result's columns twice when its stream has no batch at all.
                    out.sendEmpty(listener);
                }
                listener.completed();
            }
        } catch (Throwable e) {
            listener.error(ErrorReporting.FLIGHT.translate(e));
        } finally {
            if (s.prepared == null) {
                c.closeStatement(s.id);
            } else {
                c.closeResult(s.id);
            }
        }
    }

    /** Waits until the client takes more; false when it cancelled the stream. */
    private static boolean ready(BackpressureStrategy backpressure) {
        BackpressureStrategy.WaitResult state;
        do {
            // In slices: the strategy adds its timeout to the clock, so a "forever" would overflow.
            state = backpressure.waitForListener(1000);
        } while (state == BackpressureStrategy.WaitResult.TIMEOUT);
        return state == BackpressureStrategy.WaitResult.READY;
    }

    @Override
    public void getStreamPreparedStatement(FlightSql.CommandPreparedStatementQuery command, CallContext context,
            ServerStreamListener listener) {
        getStreamStatement(FlightSql.TicketStatementQuery.newBuilder().setStatementHandle(command.getPreparedStatementHandle())
                .build(), context, listener);
    }

    /** Binds the parameter values of the stream's first row for the next execution of a prepared query. */
    @Override
    public Runnable acceptPutPreparedStatementQuery(FlightSql.CommandPreparedStatementQuery command, CallContext context,
            FlightStream flightStream, StreamListener<PutResult> ackStream) {
        return () -> {
            try {
                Handle h = handle(command.getPreparedStatementHandle());
                List<List<Object>> rows = FlightParameters.rows(flightStream);
                h.statement.bind(rows.isEmpty() ? List.of() : rows.get(0));
                ackStream.onCompleted();
            } catch (Throwable e) {
                ackStream.onError(ErrorReporting.FLIGHT.translate(e));
            }
        };
    }

    /** Runs a prepared DML or DDL statement once per parameter row (once when it has none); replies the rows written. */
    @Override
    public Runnable acceptPutPreparedStatementUpdate(FlightSql.CommandPreparedStatementUpdate command, CallContext context,
            FlightStream flightStream, StreamListener<PutResult> ackStream) {
        return () -> update(ackStream, () -> {
            Handle h = handle(command.getPreparedStatementHandle());
            PreparedStatement p = h.statement.prepared;
            List<List<Object>> rows = FlightParameters.rows(flightStream);
            if (rows.isEmpty() && p.parameterTypes().isEmpty()) {
                rows = List.of(List.of());
            }
            long count = 0;
            for (List<Object> values : rows) {
                count += execution.run(h.connection, h.statement, p.sql(), () -> p.execute(values),
                        result -> StatementExecution.updateCount(result, p.sql()));
            }
            return count;
        });
    }

    @Override
    public Runnable acceptPutStatement(FlightSql.CommandStatementUpdate command, CallContext context, FlightStream flightStream,
            StreamListener<PutResult> ackStream) {
        return () -> update(ackStream, () -> {
            ConnectionState c = sessions.session(context);
            StatementState s = c.newStatement(null);
            try (FlightCallCancellation watch = FlightCallCancellation.watch(context, c, s)) {
                String sql = command.getQuery();
                return execution.run(c, s, sql, () -> c.session().execute(sql, List.of()),
                        result -> StatementExecution.updateCount(result, sql));
            } finally {
                c.closeStatement(s.id);
            }
        });
    }

    /**
     * Bulk ingest: the client's record batches are written to an Arrow IPC stream file and loaded
     * with COPY, the load path of {@code warpdb load}: one commit, the table gets every row or
     * none. A missing table is created when the client allows it ({@code if_not_exist: CREATE});
     * an existing one is appended to, unless the client asks to fail ({@code if_exists: FAIL};
     * REPLACE is not supported).
     */
    @Override
    public Runnable acceptPutStatementBulkIngest(FlightSql.CommandStatementIngest command, CallContext context,
            FlightStream flightStream, StreamListener<PutResult> ackStream) {
        return () -> update(ackStream, () -> {
            ConnectionState c = sessions.session(context);
            FlightSql.CommandStatementIngest.TableDefinitionOptions options = command.getTableDefinitionOptions();
            boolean exists = c.exclusive(null, () -> c.metadata().columnsOf(command.getTable()) != null);
            if (exists && options.getIfExists() == FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption
                    .TABLE_EXISTS_OPTION_FAIL) {
                throw new WarpException(SqlState.DUPLICATE_TABLE, "table " + command.getTable() + " already exists");
            }
            if (exists && options.getIfExists() == FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption
                    .TABLE_EXISTS_OPTION_REPLACE) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "bulk ingest cannot replace table " + command.getTable()
                        + "; drop it first or append");
            }
            boolean create = options.getIfNotExist()
                    == FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE;
            Path file = spool(flightStream);
            StatementState s = c.newStatement(null);
            try {
                String sql = "COPY " + identifier(command.getTable()) + " FROM '" + file.toString().replace("'", "''")
                        + "' (FORMAT arrow" + (create ? ", CREATE true" : "") + ")";
                return execution.run(c, s, sql, () -> c.session().execute(sql, List.of()),
                        result -> StatementExecution.updateCount(result, sql));
            } finally {
                c.closeStatement(s.id);
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    file.toFile().deleteOnExit();
                }
            }
        });
    }

    private static String identifier(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /**
     * Writes the client's batches to an Arrow IPC stream file for COPY, dictionary-encoded columns
     * (pyarrow's and ADBC's dictionary arrays, as WarpDB's own results send strings) decoded to
     * their values, which is what the loader reads.
     */
    private Path spool(FlightStream stream) {
        try {
            Path file = Files.createTempFile("warpdb-ingest-", ".arrows");
            DictionaryProvider dictionaries = stream.getDictionaryProvider();
            try (OutputStream out = Files.newOutputStream(file);
                    VectorSchemaRoot values = VectorSchemaRoot.create(valueSchema(stream.getSchema(), dictionaries), allocator);
                    ArrowStreamWriter writer = new ArrowStreamWriter(values, null, out)) {
                writer.start();
                while (stream.next()) {
                    VectorSchemaRoot in = stream.getRoot();
                    for (int c = 0; c < in.getFieldVectors().size(); c++) {
                        FieldVector v = in.getVector(c);
                        DictionaryEncoding encoding = v.getField().getDictionary();
                        try (ValueVector decoded = encoding == null ? null
                                : DictionaryEncoder.decode(v, dictionaries.lookup(encoding.getId()))) {
                            (decoded == null ? v : decoded).makeTransferPair(values.getVector(c)).transfer();
                        }
                    }
                    values.setRowCount(in.getRowCount());
                    writer.writeBatch();
                }
                writer.end();
            }
            return file;
        } catch (IOException e) {
            throw new WarpException(SqlState.IO_ERROR, "cannot spool the ingested batches: " + e.getMessage(), e);
        }
    }

    /** {@code schema} with each dictionary-encoded field as its dictionary's values. */
    private static org.apache.arrow.vector.types.pojo.Schema valueSchema(org.apache.arrow.vector.types.pojo.Schema schema,
            DictionaryProvider dictionaries) {
        List<Field> fields = new ArrayList<>();
        for (Field f : schema.getFields()) {
            if (f.getDictionary() == null) {
                fields.add(f);
            } else {
                Field values = dictionaries.lookup(f.getDictionary().getId()).getVector().getField();
                fields.add(new Field(f.getName(), new FieldType(f.isNullable(), values.getType(), null), values.getChildren()));
            }
        }
        return new org.apache.arrow.vector.types.pojo.Schema(fields);
    }

    private void update(StreamListener<PutResult> ackStream, Supplier<Long> work) {
        try {
            long count = work.get();
            byte[] reply = FlightSql.DoPutUpdateResult.newBuilder().setRecordCount(count).build().toByteArray();
            try (ArrowBuf buffer = allocator.buffer(reply.length)) {
                buffer.writeBytes(reply);
                ackStream.onNext(PutResult.metadata(buffer));
            }
            ackStream.onCompleted();
        } catch (Throwable e) {
            ackStream.onError(ErrorReporting.FLIGHT.translate(e));
        }
    }

    /**
     * Cancels the FlightInfo's statement (CancelFlightInfo, and the older CancelQuery that Flight
     * SQL turns into it): the batch its stream is computing fails with SQLSTATE 57014, and so does
     * the stream's next one; its result is closed. A prepared statement stays prepared.
     */
    @Override
    public void cancelFlightInfo(CancelFlightInfoRequest request, CallContext context, StreamListener<CancelStatus> listener) {
        try {
            CancelStatus status = CancelStatus.CANCELLED;
            for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
                FlightSql.TicketStatementQuery ticket = Any.parseFrom(endpoint.getTicket().getBytes())
                        .unpack(FlightSql.TicketStatementQuery.class);
                Handle h = openHandle(ticket.getStatementHandle());
                if (h == null) {
                    // A plain statement is closed once its stream is read: the query has finished, nothing to cancel.
                    status = CancelStatus.NOT_CANCELLABLE;
                    continue;
                }
                h.connection.cancel(h.statement);
                if (h.statement.prepared == null) {
                    h.connection.closeStatement(h.statement.id);
                } else {
                    h.connection.closeResult(h.statement.id);
                }
            }
            listener.onNext(status);
            listener.onCompleted();
        } catch (Throwable e) {
            listener.onError(ErrorReporting.FLIGHT.translate(e));
        }
    }

    @Override
    public void closeSession(CloseSessionRequest request, CallContext context, StreamListener<CloseSessionResult> listener) {
        sessions.close(context.getMiddleware(FlightSessions.KEY).id);
        listener.onNext(new CloseSessionResult(CloseSessionResult.Status.CLOSED));
        listener.onCompleted();
    }

    // ---- metadata: each command is its own ticket

    @Override
    protected <T extends Message> List<FlightEndpoint> determineEndpoints(T request, FlightDescriptor descriptor,
            org.apache.arrow.vector.types.pojo.Schema schema) {
        return List.of(new FlightEndpoint(new Ticket(Any.pack(request).toByteArray())));
    }

    @Override
    public void getStreamSqlInfo(FlightSql.CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
        sqlInfo.send(command.getInfoList(), listener);
    }

    @Override
    public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
        rows(context, listener, Schemas.GET_CATALOGS_SCHEMA, (m, root) -> {
            List<MetaImpl.MetaCatalog> catalogs = m.catalogs();
            for (int i = 0; i < catalogs.size(); i++) {
                text(root, 0, i, catalogs.get(i).tableCat);
            }
            return catalogs.size();
        });
    }

    @Override
    public void getStreamSchemas(FlightSql.CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
        rows(context, listener, Schemas.GET_SCHEMAS_SCHEMA, (m, root) -> {
            List<MetaImpl.MetaSchema> schemas = m.schemas(command.hasCatalog() ? command.getCatalog() : null,
                    Meta.Pat.of(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null));
            for (int i = 0; i < schemas.size(); i++) {
                text(root, 0, i, schemas.get(i).tableCatalog);
                text(root, 1, i, schemas.get(i).tableSchem);
            }
            return schemas.size();
        });
    }

    @Override
    public void getStreamTables(FlightSql.CommandGetTables command, CallContext context, ServerStreamListener listener) {
        boolean withSchema = command.getIncludeSchema();
        rows(context, listener, withSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA, (m, root) -> {
            String catalog = command.hasCatalog() ? command.getCatalog() : null;
            Meta.Pat schemaPattern = Meta.Pat.of(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null);
            Meta.Pat namePattern = Meta.Pat.of(command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : null);
            List<MetaImpl.MetaTable> tables = m.tables(catalog, schemaPattern, namePattern,
                    command.getTableTypesCount() == 0 ? null : command.getTableTypesList());
            for (int i = 0; i < tables.size(); i++) {
                MetaImpl.MetaTable t = tables.get(i);
                text(root, 0, i, t.tableCat);
                text(root, 1, i, t.tableSchem);
                text(root, 2, i, t.tableName);
                text(root, 3, i, t.tableType);
                if (withSchema) {
                    Schema columns = m.columnsOf(t.tableName);
                    ((VarBinaryVector) root.getVector(4)).setSafe(i, FlightBatches.arrowSchema(
                            columns == null ? new Schema(List.of()) : columns).serializeAsMessage());
                }
            }
            return tables.size();
        });
    }

    @Override
    public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
        rows(context, listener, Schemas.GET_TABLE_TYPES_SCHEMA, (m, root) -> {
            List<MetaImpl.MetaTableType> types = m.tableTypes();
            for (int i = 0; i < types.size(); i++) {
                text(root, 0, i, types.get(i).tableType);
            }
            return types.size();
        });
    }

    @Override
    public void getStreamPrimaryKeys(FlightSql.CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener) {
        rows(context, listener, Schemas.GET_PRIMARY_KEYS_SCHEMA, (m, root) -> {
            List<CatalogMetadata.PrimaryKeyColumn> keys = m.primaryKeys(command.hasCatalog() ? command.getCatalog() : null,
                    command.hasDbSchema() ? command.getDbSchema() : null, command.getTable());
            int catalog = column(root, "catalog_name");
            int schema = column(root, "db_schema_name");
            int table = column(root, "table_name");
            int name = column(root, "column_name");
            int keyName = column(root, "key_name");
            int sequence = column(root, "key_sequence");
            for (int i = 0; i < keys.size(); i++) {
                CatalogMetadata.PrimaryKeyColumn k = keys.get(i);
                text(root, catalog, i, k.tableCat);
                text(root, schema, i, k.tableSchem);
                text(root, table, i, k.tableName);
                text(root, name, i, k.columnName);
                text(root, keyName, i, k.pkName);
                integer(root, sequence, i, (int) k.keySeq);
            }
            return keys.size();
        });
    }

    @Override
    public void getStreamTypeInfo(FlightSql.CommandGetXdbcTypeInfo command, CallContext context, ServerStreamListener listener) {
        rows(context, listener, Schemas.GET_TYPE_INFO_SCHEMA, (m, root) -> {
            int n = 0;
            for (MetaImpl.MetaTypeInfo t : m.typeInfo()) {
                if (command.hasDataType() && command.getDataType() != t.dataType) {
                    continue;
                }
                text(root, 0, n, t.typeName);
                integer(root, 1, n, t.dataType);
                integer(root, 2, n, t.precision);
                text(root, 3, n, t.literalPrefix);
                text(root, 4, n, t.literalSuffix);
                integer(root, 6, n, (int) t.nullable);
                bool(root, 7, n, t.caseSensitive);
                integer(root, 8, n, (int) t.searchable);
                bool(root, 9, n, t.unsignedAttribute);
                bool(root, 10, n, t.fixedPrecScale);
                bool(root, 11, n, t.autoIncrement);
                text(root, 12, n, t.typeName);
                integer(root, 13, n, (int) t.minimumScale);
                integer(root, 14, n, (int) t.maximumScale);
                integer(root, 15, n, t.dataType);
                integer(root, 17, n, t.numPrecRadix);
                n++;
            }
            return n;
        });
    }

    /** Fills a root of {@code schema} with the rows {@code fill} writes (returning their count) and sends it. */
    private void rows(CallContext context, ServerStreamListener listener, org.apache.arrow.vector.types.pojo.Schema schema,
            RowWriter fill) {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            ConnectionState c = sessions.session(context);
            int rows = c.exclusive(null, () -> fill.write(c.metadata(), root));
            root.setRowCount(rows);
            listener.start(root);
            listener.putNext();
            listener.completed();
        } catch (Throwable e) {
            listener.error(ErrorReporting.FLIGHT.translate(e));
        }
    }

    private interface RowWriter {
        int write(CatalogMetadata metadata, VectorSchemaRoot root);
    }

    /** The position of the field named {@code name} in {@code root}'s schema (Flight SQL names its fields). */
    private static int column(VectorSchemaRoot root, String name) {
        List<org.apache.arrow.vector.types.pojo.Field> fields = root.getSchema().getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("no field " + name + " in " + root.getSchema());
    }

    private static void text(VectorSchemaRoot root, int column, int row, String value) {
        VarCharVector v = (VarCharVector) root.getVector(column);
        if (value == null) {
            v.setNull(row);
        } else {
            v.setSafe(row, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void integer(VectorSchemaRoot root, int column, int row, Integer value) {
        IntVector v = (IntVector) root.getVector(column);
        if (value == null) {
            v.setNull(row);
        } else {
            v.setSafe(row, value);
        }
    }

    private static void bool(VectorSchemaRoot root, int column, int row, boolean value) {
        ((BitVector) root.getVector(column)).setSafe(row, value ? 1 : 0);
    }

    // ---- plumbing

    private static void respond(StreamListener<Result> listener, Supplier<Result> work) {
        try {
            listener.onNext(work.get());
            listener.onCompleted();
        } catch (Throwable e) {
            listener.onError(ErrorReporting.FLIGHT.translate(e));
        }
    }

    private static <T> T guarded(Supplier<T> work) {
        try {
            return work.get();
        } catch (Throwable e) {
            throw ErrorReporting.FLIGHT.translate(e);
        }
    }

    @Override
    public void close() {
        sessions.close();
    }
}
