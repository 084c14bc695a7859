package io.warpdb.tpch;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.OrderedParallel;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.stream.Collectors;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * A DuckDB holding the same benchmark rows (TPC-H, TPC-DS) as WarpDB, in memory or in a database file
 * that later runs reuse ({@link #loadMissing}): the answer oracle and the benchmark peer. It is a yardstick only (DESIGN.md): nothing in WarpDB runs on it.
 * CHAR columns are VARCHAR here, so that DuckDB's padding rules play no part in comparisons;
 * their values carry no padding in either database.
 */
public final class DuckDbReference implements QueryTarget, AutoCloseable {
    /**
     * The table storage tags of {@code duckdb_memory()}: an in-memory database's table data
     * (strings included) is IN_MEMORY_TABLE; a file's blocks in memory are BASE_TABLE.
     */
    private static final String TABLE_MEMORY = "SELECT COALESCE(SUM(memory_usage_bytes), 0) FROM duckdb_memory()"
            + " WHERE tag IN ('IN_MEMORY_TABLE', 'BASE_TABLE', 'OVERFLOW_STRINGS')";

    private final DuckDBConnection connection;
    private final Map<String, Long> tableBytes = new LinkedHashMap<>();

    private DuckDbReference(DuckDBConnection connection) {
        this.connection = connection;
    }

    /** A new, empty in-memory DuckDB. */
    public static DuckDbReference open() {
        return open("jdbc:duckdb:");
    }

    /** A DuckDB database in {@code file} (created when missing), e.g. to measure its size on disk. */
    public static DuckDbReference open(java.nio.file.Path file) {
        return open("jdbc:duckdb:" + file.toAbsolutePath());
    }

    private static DuckDbReference open(String url) {
        try {
            return new DuckDbReference((DuckDBConnection) DriverManager.getConnection(url));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start DuckDB: " + e.getMessage(), e);
        }
    }

    /** The connection, for ad-hoc queries in tests and tools. */
    public Connection connection() {
        return connection;
    }

    @Override
    public String name() {
        return "DuckDB";
    }

    /** Creates and fills the TPC-H tables; parts are appended concurrently, one connection each. */
    public LoadReport load(TpchData data, int threads) {
        return load(data, threads, TpchSchema.tables());
    }

    /** Creates and fills these TPC-H tables; parts are appended concurrently, one connection each. */
    public LoadReport load(TpchData data, int threads, List<TpchSchema.Table> tables) {
        return load(TpchLoader.parts(data, tables), threads, data.describe());
    }

    /**
     * Creates and fills {@code tables}, one after another: a table read from a text file by
     * DuckDB's own parallel read_csv of that file, generated rows by appending the table's parts
     * concurrently, one connection each. {@code source} names the data in the report.
     */
    public LoadReport load(List<TableParts> tables, int threads, String source) {
        long start = System.nanoTime();
        List<LoadReport.TableLoad> loaded = new ArrayList<>();
        ExecutorService pool = OrderedParallel.pool(threads, "duckdb-load");
        try (Statement statement = connection.createStatement()) {
            for (TableParts table : tables) {
                long t0 = System.nanoTime();
                long memoryBefore = tableMemory(statement);
                statement.execute(createTable(table.name(), table.schema()));
                long rows = table.file().isPresent() ? statement.executeUpdate(insertFromFile(table, table.file().get()))
                        : append(table, pool, threads);
                loaded.add(new LoadReport.TableLoad(table.name(), rows, System.nanoTime() - t0));
                tableBytes.put(table.name(), tableMemory(statement) - memoryBefore);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
        return new LoadReport(source + " -> DuckDB", loaded, System.nanoTime() - start);
    }

    /**
     * As {@link #load(List, int, String)} for the tables of {@code tables} this DuckDB does not
     * hold yet (a database file loaded by an earlier run keeps them: each table's rows were
     * inserted by one statement, so a table with rows holds all of them; an empty one is loaded
     * again); null when it holds them all.
     */
    public LoadReport loadMissing(List<TableParts> tables, int threads, String source) {
        List<TableParts> missing = new ArrayList<>();
        try (Statement statement = connection.createStatement()) {
            for (TableParts table : tables) {
                if (!holdsRows(statement, table.name())) {
                    statement.execute("DROP TABLE IF EXISTS " + table.name());
                    missing.add(table);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB: " + e.getMessage(), e);
        }
        return missing.isEmpty() ? null : load(missing, threads, source);
    }

    private static boolean holdsRows(Statement statement, String table) throws SQLException {
        try (ResultSet exists = statement.executeQuery("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = '" + table + "'")) {
            exists.next();
            if (exists.getLong(1) == 0) {
                return false;
            }
        }
        try (ResultSet any = statement.executeQuery("SELECT COUNT(*) FROM (SELECT 1 FROM " + table + " LIMIT 1)")) {
            any.next();
            return any.getLong(1) > 0;
        }
    }

    /**
     * The bytes of DuckDB's table storage that loading {@code table} added (tables load one after
     * another, each committed before the next begins); empty when this DuckDB did not load it.
     * In an in-memory DuckDB that is the table's memory, uncompressed as DuckDB keeps it there.
     */
    public OptionalLong tableBytes(String table) {
        Long bytes = tableBytes.get(table);
        return bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes);
    }

    private static long tableMemory(Statement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery(TABLE_MEMORY)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static String createTable(String name, Schema schema) {
        return schema.fields().stream().map(DuckDbReference::column)
                .collect(Collectors.joining(", ", "CREATE TABLE " + name + " (", ")"));
    }

    private static String column(Field field) {
        return field.name() + " " + duckDbType(field.type()) + (field.type().nullable() ? "" : " NOT NULL");
    }

    private static String duckDbType(DataType type) {
        return type.kind().isString() ? "VARCHAR" : type.sqlName();
    }

    private long append(TableParts table, ExecutorService pool, int threads) {
        long rows = 0;
        try (OrderedParallel<Long> parts = new OrderedParallel<>(pool, table.parts(), 2 * threads,
                part -> append(table, part), count -> { })) {
            while (parts.hasNext()) {
                rows += parts.next();
            }
        }
        return rows;
    }

    /**
     * The INSERT that reads the table's text file ({@link TextTableFile}: each value followed by
     * {@code |}, no quoting) with the schema's column types, so that DuckDB parses the values
     * as WarpDB does: an empty value is NULL, in NOT NULL columns an empty string.
     */
    static String insertFromFile(TableParts table, Path file) {
        List<Field> fields = table.schema().fields();
        String columns = fields.stream().map(f -> "'" + f.name() + "': '" + duckDbType(f.type()) + "'")
                .collect(Collectors.joining(", ", "{", "}"));
        String notNull = fields.stream().filter(f -> !f.type().nullable()).map(f -> "'" + f.name() + "'")
                .collect(Collectors.joining(", ", "[", "]"));
        return "INSERT INTO " + table.name() + " SELECT * FROM read_csv('" + file.toAbsolutePath().toString().replace("'", "''")
                + "', delim = '|', header = false, quote = '', escape = '', nullstr = '', auto_detect = false, columns = "
                + columns + (notNull.equals("[]") ? "" : ", force_not_null = " + notNull) + ")";
    }

    private long append(TableParts table, int part) {
        List<Field> fields = table.schema().fields();
        long rows = 0;
        try (DuckDBConnection own = connection.duplicate();
                DuckDBAppender appender = own.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table.name());
                RowCursor cursor = table.open().apply(part)) {
            while (cursor.next()) {
                appender.beginRow();
                for (int c = 0; c < fields.size(); c++) {
                    if (cursor.isNull(c)) {
                        appender.appendNull();
                    } else {
                        appendValue(appender, fields.get(c).type(), cursor, c);
                    }
                }
                appender.endRow();
                rows++;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB: appending to " + table.name() + ": " + e.getMessage(), e);
        }
        return rows;
    }

    private static void appendValue(DuckDBAppender appender, DataType type, RowCursor cursor, int c) throws SQLException {
        switch (type.kind()) {
            case INTEGER -> appender.append(Math.toIntExact(cursor.getLong(c)));
            case BIGINT -> appender.append(cursor.getLong(c));
            case DECIMAL -> appendDecimal(appender, type.precision(), cursor.getLong(c));
            case DATE -> appender.appendEpochDays(cursor.getDate(c));
            case CHAR, VARCHAR -> appender.append(cursor.getString(c));
            default -> throw new IllegalStateException("benchmark tables have no " + type + " column");
        }
    }

    /** An unscaled decimal in the width DuckDB stores a DECIMAL of this precision in. */
    private static void appendDecimal(DuckDBAppender appender, int precision, long unscaled) throws SQLException {
        if (precision <= 4) {
            appender.appendDecimal((short) unscaled);
        } else if (precision <= 9) {
            appender.appendDecimal(Math.toIntExact(unscaled));
        } else {
            appender.appendDecimal(unscaled);
        }
    }

    @Override
    public ResultTable query(String sql) {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            return ResultTable.of(rs);
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB: " + e.getMessage(), e);
        }
    }
}
