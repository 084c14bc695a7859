package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every way of reaching WarpDB through JDBC must do alike. Each test gets a fresh database;
 * closing it at the end fails the test if any Arrow memory was left allocated.
 */
abstract class JdbcContractTest {
    private final List<Connection> opened = new ArrayList<>();

    /** Opens the test's database, fresh for each test. */
    abstract void openDatabase() throws Exception;

    /** A new connection to the test's database. */
    abstract Connection newConnection(Properties properties) throws SQLException;

    /** Closes the test's database, failing on leaked memory. */
    abstract void closeDatabase() throws Exception;

    @BeforeEach
    void setUp() throws Exception {
        openDatabase();
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Connection c : opened) {
            c.close();
        }
        closeDatabase();
    }

    Connection connect() throws SQLException {
        return connect(new Properties());
    }

    Connection connect(Properties properties) throws SQLException {
        Connection c = newConnection(properties);
        opened.add(c);
        return c;
    }

    private static void createOrdersTable(Statement s) throws SQLException {
        assertEquals(0, s.executeUpdate("CREATE TABLE orders (id INTEGER NOT NULL, qty BIGINT, price DECIMAL(10,2), "
                + "customer VARCHAR(20), shipped DATE)"));
    }

    private static void createOrders(Statement s) throws SQLException {
        createOrdersTable(s);
        assertEquals(3, s.executeUpdate("INSERT INTO orders VALUES (1, 10, 2.50, 'alice', DATE '2024-01-31'), "
                + "(2, NULL, 100.00, 'bob', NULL), (3, 3000000000, 0.05, NULL, DATE '1999-12-31')"));
    }

    @Test
    void ddlInsertAndSelectReturnValuesOfEveryType() throws SQLException {
        try (Statement s = connect().createStatement()) {
            createOrders(s);
            try (ResultSet rs = s.executeQuery("SELECT id, qty, price, customer, shipped FROM orders ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertEquals(10L, rs.getLong("qty"));
                assertEquals(new BigDecimal("2.50"), rs.getBigDecimal(3));
                assertEquals("alice", rs.getString(4));
                assertEquals(Date.valueOf("2024-01-31"), rs.getDate(5));
                assertEquals(Integer.valueOf(1), rs.getObject(1));
                assertTrue(rs.next());
                assertEquals(0L, rs.getLong(2));
                assertTrue(rs.wasNull());
                assertNull(rs.getObject(2));
                assertNull(rs.getDate(5));
                assertEquals(new BigDecimal("100.00"), rs.getBigDecimal(3));
                assertTrue(rs.next());
                assertEquals(3_000_000_000L, rs.getObject(2));
                assertEquals(Date.valueOf("1999-12-31"), rs.getObject(5));
                assertNull(rs.getString(4));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void queriesJoinGroupAndOrder() throws SQLException {
        try (Statement s = connect().createStatement()) {
            createOrders(s);
            s.executeUpdate("CREATE TABLE customers (name VARCHAR(20), city VARCHAR(20))");
            s.executeUpdate("INSERT INTO customers VALUES ('alice', 'Oslo'), ('bob', 'Lima'), ('carol', 'Oslo')");
            try (ResultSet rs = s.executeQuery("SELECT c.city, COUNT(*) AS n, SUM(o.price) AS total FROM orders o "
                    + "JOIN customers c ON o.customer = c.name GROUP BY c.city ORDER BY total DESC")) {
                assertTrue(rs.next());
                assertEquals("Lima", rs.getString("city"));
                assertEquals(1, rs.getLong("n"));
                assertEquals(0, new BigDecimal("100.00").compareTo(rs.getBigDecimal("total")));
                assertTrue(rs.next());
                assertEquals("Oslo", rs.getString(1));
                assertEquals(0, new BigDecimal("2.50").compareTo(rs.getBigDecimal(3)));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void explainAnalyzeRunsTheQueryAndReturnsThePlanWithRowCounts() throws SQLException {
        try (Statement s = connect().createStatement()) {
            createOrders(s);
            List<String> plan = column(s.executeQuery("EXPLAIN ANALYZE SELECT id FROM orders WHERE price > 1"), "PLAN");
            assertTrue(plan.stream().allMatch(line -> line.matches(".*\\)  \\[cpu] rows=\\d+ time=\\d+\\.\\d ms")), plan.toString());
            assertTrue(plan.get(0).contains(" rows=2 "), "the query's rows: " + plan);
            String scan = plan.get(plan.size() - 1);
            assertTrue(scan.contains("Scan(table=orders") && scan.contains(" rows=3 "), "the table's rows: " + plan);
        }
    }

    @Test
    void preparedStatementBindsParametersOfSeveralTypes() throws SQLException {
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            createOrdersTable(s);
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?)")) {
            ParameterMetaData p = insert.getParameterMetaData();
            assertEquals(5, p.getParameterCount());
            assertEquals(Types.INTEGER, p.getParameterType(1));
            assertEquals(Types.BIGINT, p.getParameterType(2));
            assertEquals(Types.DECIMAL, p.getParameterType(3));
            assertEquals(10, p.getPrecision(3));
            assertEquals(2, p.getScale(3));
            assertEquals(Types.VARCHAR, p.getParameterType(4));
            assertEquals(Types.DATE, p.getParameterType(5));

            insert.setInt(1, 7);
            insert.setLong(2, 9_000_000_000L);
            insert.setBigDecimal(3, new BigDecimal("12.34"));
            insert.setString(4, "dora");
            insert.setDate(5, Date.valueOf("2023-03-15"));
            assertEquals(1, insert.executeUpdate());
            insert.setInt(1, 8);
            insert.setNull(2, Types.BIGINT);
            insert.setNull(3, Types.DECIMAL);
            insert.setNull(4, Types.VARCHAR);
            insert.setNull(5, Types.DATE);
            assertEquals(1, insert.executeUpdate());
        }
        try (PreparedStatement query = c.prepareStatement(
                "SELECT id, qty, price, customer, shipped FROM orders WHERE id >= ? AND (shipped >= ? OR shipped IS NULL) ORDER BY id")) {
            query.setInt(1, 7);
            query.setDate(2, Date.valueOf("2023-01-01"));
            try (ResultSet rs = query.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
                assertEquals(9_000_000_000L, rs.getLong(2));
                assertEquals(new BigDecimal("12.34"), rs.getBigDecimal(3));
                assertEquals("dora", rs.getString(4));
                assertEquals(Date.valueOf("2023-03-15"), rs.getDate(5));
                assertTrue(rs.next());
                assertEquals(8, rs.getInt(1));
                assertNull(rs.getObject(2));
                assertNull(rs.getObject(3));
                assertNull(rs.getObject(4));
                assertNull(rs.getObject(5));
                assertFalse(rs.next());
            }
            // Re-executing with other values reuses the prepared statement.
            query.setInt(1, 8);
            query.setDate(2, Date.valueOf("2030-01-01"));
            try (ResultSet rs = query.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(8, rs.getInt(1));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void timestampsTravelAsJavaSqlTimestampsToTheMillisecond() throws SQLException {
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE events (id INTEGER, happened TIMESTAMP)");
            s.executeUpdate("INSERT INTO events VALUES (1, TIMESTAMP '2024-03-10 02:30:00.123456'), (2, NULL), "
                    + "(3, TIMESTAMP '1969-12-31 23:59:59.999')");
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO events VALUES (?, ?)")) {
            assertEquals(Types.TIMESTAMP, insert.getParameterMetaData().getParameterType(2));
            insert.setInt(1, 4);
            insert.setTimestamp(2, Timestamp.valueOf("0001-01-01 00:00:00.5"));
            assertEquals(1, insert.executeUpdate());
        }
        try (PreparedStatement query = c.prepareStatement("SELECT id, happened, CAST(happened AS VARCHAR) FROM events WHERE happened < ? OR happened IS NULL ORDER BY id")) {
            query.setTimestamp(1, Timestamp.valueOf("2030-01-01 00:00:00"));
            try (ResultSet rs = query.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(Types.TIMESTAMP, md.getColumnType(2));
                assertEquals("TIMESTAMP", md.getColumnTypeName(2));
                assertEquals(Timestamp.class.getName(), md.getColumnClassName(2));
                assertTrue(rs.next());
                // 02:30 on 2024-03-10 does not exist in US zones; a timestamp has no zone, so it stays.
                assertEquals(Timestamp.valueOf("2024-03-10 02:30:00.123"), rs.getTimestamp(2));
                assertEquals(Timestamp.valueOf("2024-03-10 02:30:00.123"), rs.getObject(2));
                assertEquals("2024-03-10 02:30:00.123456", rs.getString(3));
                assertTrue(rs.next());
                assertNull(rs.getTimestamp(2));
                assertTrue(rs.next());
                assertEquals(Timestamp.valueOf("1969-12-31 23:59:59.999"), rs.getTimestamp(2));
                assertTrue(rs.next());
                assertEquals("0001-01-01 00:00:00.5", rs.getString(3));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void narrowIntegersAndRealsKeepTheirJdbcTypes() throws SQLException {
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE narrow (s SMALLINT, t TINYINT, r REAL)");
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO narrow VALUES (?, ?, ?)")) {
            ParameterMetaData p = insert.getParameterMetaData();
            assertEquals(Types.SMALLINT, p.getParameterType(1));
            assertEquals(Types.TINYINT, p.getParameterType(2));
            assertEquals(Types.REAL, p.getParameterType(3));
            insert.setShort(1, Short.MIN_VALUE);
            insert.setByte(2, Byte.MAX_VALUE);
            insert.setFloat(3, 0.1f);
            assertEquals(1, insert.executeUpdate());
            insert.setInt(1, 40_000);
            SQLException e = assertThrows(SQLException.class, insert::executeUpdate);
            assertEquals("22003", e.getSQLState());
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT s, t, r, s + t FROM narrow WHERE t = 127")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(Types.SMALLINT, md.getColumnType(1));
            assertEquals("SMALLINT", md.getColumnTypeName(1));
            assertEquals(Short.class.getName(), md.getColumnClassName(1));
            assertEquals(5, md.getPrecision(1));
            assertEquals(Types.TINYINT, md.getColumnType(2));
            assertEquals("TINYINT", md.getColumnTypeName(2));
            assertEquals(Types.REAL, md.getColumnType(3));
            assertEquals("REAL", md.getColumnTypeName(3));
            assertEquals(Float.class.getName(), md.getColumnClassName(3));
            assertEquals(Types.SMALLINT, md.getColumnType(4));
            assertTrue(rs.next());
            assertEquals(Short.MIN_VALUE, rs.getShort(1));
            assertEquals(Byte.MAX_VALUE, rs.getByte(2));
            assertEquals(0.1f, rs.getFloat(3));
            assertEquals((double) 0.1f, rs.getDouble(3));
            assertFalse(rs.next());
        }
        try (Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT s + s FROM narrow").next());
            assertEquals("22003", e.getSQLState());
        }
    }

    @Test
    void wideDecimalsTravelAsBigDecimalsWithTheirPrecision() throws SQLException {
        Connection c = connect();
        BigDecimal max = new BigDecimal("999999999999999999999999999999999999.99");
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE ledger (id INTEGER, amount DECIMAL(38,2))");
            s.executeUpdate("INSERT INTO ledger VALUES (1, " + max.toPlainString() + "), (2, NULL)");
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO ledger VALUES (?, ?)")) {
            assertEquals(Types.DECIMAL, insert.getParameterMetaData().getParameterType(2));
            insert.setInt(1, 3);
            insert.setBigDecimal(2, max.negate());
            assertEquals(1, insert.executeUpdate());
            insert.setInt(1, 4);
            insert.setBigDecimal(2, new BigDecimal("1e36"));
            SQLException e = assertThrows(SQLException.class, insert::executeUpdate);
            assertEquals("22003", e.getSQLState());
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, amount FROM ledger ORDER BY id")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(Types.DECIMAL, md.getColumnType(2));
            assertEquals("DECIMAL", md.getColumnTypeName(2));
            assertEquals(38, md.getPrecision(2));
            assertEquals(2, md.getScale(2));
            assertEquals(BigDecimal.class.getName(), md.getColumnClassName(2));
            assertTrue(rs.next());
            assertEquals(max, rs.getBigDecimal(2));
            assertEquals(max, rs.getObject(2));
            assertEquals(max.toPlainString(), rs.getString(2));
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, amount FROM ledger WHERE id > 1 ORDER BY id")) {
            assertTrue(rs.next());
            assertNull(rs.getBigDecimal(2));
            assertTrue(rs.next());
            assertEquals(max.negate(), rs.getBigDecimal(2));
            assertFalse(rs.next());
        }
    }

    @Test
    void intervalsTravelAsTheirTextTypedOther() throws SQLException {
        try (Statement s = connect().createStatement(); ResultSet rs = s.executeQuery(
                "SELECT TIMESTAMP '2024-01-02 03:04:05.5' - TIMESTAMP '2024-01-01 00:00:00', CAST(NULL AS TIMESTAMP) - TIMESTAMP '2024-01-01 00:00:00'")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(Types.OTHER, md.getColumnType(1));
            assertEquals("INTERVAL", md.getColumnTypeName(1));
            assertEquals(String.class.getName(), md.getColumnClassName(1));
            assertTrue(rs.next());
            assertEquals("1 day 03:04:05.5", rs.getObject(1));
            assertEquals("1 day 03:04:05.5", rs.getString(1));
            assertNull(rs.getObject(2));
        }
    }

    @Test
    void batchesOfPreparedInserts() throws SQLException {
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER, name VARCHAR(10))");
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
            for (int i = 0; i < 3; i++) {
                insert.setInt(1, i);
                insert.setString(2, "n" + i);
                insert.addBatch();
            }
            assertEquals(List.of(1, 1, 1), java.util.Arrays.stream(insert.executeBatch()).boxed().toList());
        }
        assertEquals(3L, scalar(c, "SELECT COUNT(*) FROM t"));
    }

    @Test
    void resultSetMetaDataDescribesColumns() throws SQLException {
        try (Statement s = connect().createStatement()) {
            createOrders(s);
            try (ResultSet rs = s.executeQuery("SELECT id, qty, price, customer, shipped, price * 2 AS doubled FROM orders")) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(6, md.getColumnCount());
                assertEquals("id", md.getColumnLabel(1));
                assertEquals("id", md.getColumnName(1));
                assertEquals("doubled", md.getColumnLabel(6));
                assertEquals(Types.INTEGER, md.getColumnType(1));
                assertEquals("INTEGER", md.getColumnTypeName(1));
                assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(1));
                assertEquals(Integer.class.getName(), md.getColumnClassName(1));
                assertTrue(md.isSigned(1));
                assertEquals(Types.BIGINT, md.getColumnType(2));
                assertEquals(Long.class.getName(), md.getColumnClassName(2));
                assertEquals(ResultSetMetaData.columnNullable, md.isNullable(2));
                assertEquals(Types.DECIMAL, md.getColumnType(3));
                assertEquals("DECIMAL", md.getColumnTypeName(3));
                assertEquals(10, md.getPrecision(3));
                assertEquals(2, md.getScale(3));
                assertEquals(12, md.getColumnDisplaySize(3));
                assertEquals(BigDecimal.class.getName(), md.getColumnClassName(3));
                assertEquals(Types.VARCHAR, md.getColumnType(4));
                assertEquals(20, md.getPrecision(4));
                assertEquals(String.class.getName(), md.getColumnClassName(4));
                assertEquals(Types.DATE, md.getColumnType(5));
                assertEquals(Date.class.getName(), md.getColumnClassName(5));
                assertEquals(Types.DECIMAL, md.getColumnType(6));
                assertEquals(2, md.getScale(6));
            }
        }
    }

    @Test
    void databaseMetaDataListsSchemasTablesAndColumns() throws SQLException {
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            createOrdersTable(s);
            s.executeUpdate("CREATE TABLE order_lines (order_id INTEGER, line INTEGER)");
            s.executeUpdate("CREATE TABLE orderXlines (a INTEGER)");
            s.executeUpdate("CREATE VIEW big_orders AS SELECT id, price FROM orders WHERE price > 10");
        }
        DatabaseMetaData md = c.getMetaData();
        String catalog = c.getCatalog();
        assertEquals("PUBLIC", c.getSchema());
        assertEquals(List.of(catalog), column(md.getCatalogs(), "TABLE_CAT"));
        try (ResultSet rs = md.getSchemas()) {
            assertTrue(rs.next());
            assertEquals("PUBLIC", rs.getString("TABLE_SCHEM"));
            assertEquals(catalog, rs.getString("TABLE_CATALOG"));
            assertFalse(rs.next());
        }
        assertEquals(List.of("PUBLIC"), column(md.getSchemas(null, "PUB%"), "TABLE_SCHEM"));
        assertEquals(List.of(), column(md.getSchemas(null, "OTHER"), "TABLE_SCHEM"));
        assertEquals(List.of("TABLE", "VIEW"), column(md.getTableTypes(), "TABLE_TYPE"));

        assertEquals(List.of("order_lines", "orders", "orderXlines", "big_orders"),
                column(md.getTables(null, null, "%", null), "TABLE_NAME"));
        assertEquals(List.of("order_lines", "orderXlines"), column(md.getTables(null, "PUBLIC", "order_lines", null), "TABLE_NAME"),
                "_ matches any one character");
        assertEquals(List.of("order_lines"), column(md.getTables(catalog, "PUBLIC", "order\\_lines", null), "TABLE_NAME"),
                "an escaped _ matches only itself");
        assertEquals(List.of("big_orders"), column(md.getTables(null, null, null, new String[] {"VIEW"}), "TABLE_NAME"));
        assertEquals(List.of(), column(md.getTables("nope", null, null, null), "TABLE_NAME"));
        try (ResultSet rs = md.getTables(null, null, "ORDERS", null)) {
            assertTrue(rs.next(), "names match whatever their case");
            assertEquals(catalog, rs.getString("TABLE_CAT"));
            assertEquals("PUBLIC", rs.getString("TABLE_SCHEM"));
            assertEquals("orders", rs.getString("TABLE_NAME"));
            assertEquals("TABLE", rs.getString("TABLE_TYPE"));
            assertFalse(rs.next());
        }

        assertEquals(List.of("id", "qty", "price", "customer", "shipped"), column(md.getColumns(null, null, "orders", null), "COLUMN_NAME"));
        assertEquals(List.of("id", "price"), column(md.getColumns(null, null, "big_orders", "%"), "COLUMN_NAME"));
        try (ResultSet rs = md.getColumns(null, "PUBLIC", "orders", "pri%")) {
            assertTrue(rs.next());
            assertEquals("orders", rs.getString("TABLE_NAME"));
            assertEquals("price", rs.getString("COLUMN_NAME"));
            assertEquals(Types.DECIMAL, rs.getInt("DATA_TYPE"));
            assertEquals("DECIMAL", rs.getString("TYPE_NAME"));
            assertEquals(10, rs.getInt("COLUMN_SIZE"));
            assertEquals(2, rs.getInt("DECIMAL_DIGITS"));
            assertEquals(10, rs.getInt("NUM_PREC_RADIX"));
            assertEquals(DatabaseMetaData.columnNullable, rs.getInt("NULLABLE"));
            assertEquals("YES", rs.getString("IS_NULLABLE"));
            assertEquals(3, rs.getInt("ORDINAL_POSITION"));
            assertFalse(rs.next());
        }
        try (ResultSet rs = md.getColumns(null, null, "orders", "id")) {
            assertTrue(rs.next());
            assertEquals(Types.INTEGER, rs.getInt("DATA_TYPE"));
            assertEquals(DatabaseMetaData.columnNoNulls, rs.getInt("NULLABLE"));
            assertEquals("NO", rs.getString("IS_NULLABLE"));
        }
        try (ResultSet rs = md.getColumns(null, null, "orders", "customer")) {
            assertTrue(rs.next());
            assertEquals(Types.VARCHAR, rs.getInt("DATA_TYPE"));
            assertEquals(20, rs.getInt("COLUMN_SIZE"));
        }
        List<String> typeNames = column(md.getTypeInfo(), "TYPE_NAME");
        assertTrue(typeNames.containsAll(List.of("BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "REAL", "DOUBLE", "DECIMAL", "DATE", "TIMESTAMP",
                "VARCHAR", "CHAR")),
                typeNames.toString());
        List<String> functions = column(md.getFunctions(null, null, "%"), "FUNCTION_NAME");
        if (listsFunctions()) {
            assertTrue(functions.containsAll(List.of("UPPER", "SUBSTRING", "COUNT", "SUM", "EXTRACT")), functions.toString());
            assertEquals(List.of("SUBSTRING", "SUM"), column(md.getFunctions(null, null, "SU%"), "FUNCTION_NAME"));
            try (ResultSet rs = md.getFunctions(null, null, "UPPER")) {
                assertTrue(rs.next());
                assertEquals(DatabaseMetaData.functionNoTable, rs.getShort("FUNCTION_TYPE"));
            }
        } else {
            assertEquals(List.of(), functions);
        }
        try (ResultSet rs = md.getPrimaryKeys(null, null, "orders")) {
            assertEquals("COLUMN_NAME", rs.getMetaData().getColumnName(4), "the standard columns");
            assertFalse(rs.next(), "orders declares no key");
        }
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE lines (line INTEGER NOT NULL, region VARCHAR(4), ord BIGINT, PRIMARY KEY (ord, line))");
        }
        List<String> keys = new ArrayList<>();
        try (ResultSet rs = md.getPrimaryKeys(null, null, "lines")) {
            while (rs.next()) {
                keys.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME") + "#" + rs.getShort("KEY_SEQ"));
            }
        }
        // In column-name order, as JDBC asks; KEY_SEQ is the position in the key.
        assertEquals(listsPrimaryKeys() ? List.of("lines.line#2", "lines.ord#1") : List.of(), keys);
    }

    /** Whether getPrimaryKeys reaches WarpDB (Avatica's remote protocol has no such request: its client answers empty). */
    boolean listsPrimaryKeys() {
        return true;
    }

    /** Whether getFunctions reaches WarpDB (Avatica's remote protocol has no such request: its client answers empty). */
    boolean listsFunctions() {
        return true;
    }

    @Test
    void errorsCarryTheirSqlState() throws SQLException {
        try (Statement s = connect().createStatement()) {
            createOrdersTable(s);
            SQLException syntax = assertThrows(SQLException.class, () -> s.executeQuery("SELECT id FROM orders WHERE"));
            assertEquals("42601", syntax.getSQLState());
            assertTrue(syntax.getMessage().contains("line 1, column"), syntax.getMessage());
            assertEquals("42P01", assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM nowhere")).getSQLState());
            assertEquals("42703", assertThrows(SQLException.class, () -> s.executeQuery("SELECT nothing FROM orders")).getSQLState());
            assertEquals("42P07", assertThrows(SQLException.class,
                    () -> s.executeUpdate("CREATE TABLE orders (a INTEGER)")).getSQLState());
            s.executeUpdate("INSERT INTO orders VALUES (1, 10, 2.50, 'alice', DATE '2024-01-31')");
            assertEquals("22012", assertThrows(SQLException.class, () -> {
                try (ResultSet rs = s.executeQuery("SELECT id / (id - id) FROM orders")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                }
            }).getSQLState());
            // The connection is still good after all that.
            assertEquals(1L, scalar(s.getConnection(), "SELECT COUNT(*) FROM orders"));
        }
    }

    @Test
    void preparingABadStatementFailsWithItsSqlState() throws SQLException {
        Connection c = connect();
        assertEquals("42P01", assertThrows(SQLException.class, () -> c.prepareStatement("SELECT * FROM nowhere")).getSQLState());
    }

    @Test
    void anotherClientIsServedAfterAnError() throws SQLException {
        try (Statement s = connect().createStatement()) {
            assertThrows(SQLException.class, () -> s.executeQuery("SELEC 1"));
        }
        assertEquals(2L, scalar(connect(), "SELECT 1 + 1"));
    }

    /** Creates {@code big(v)} with the 100,000 values 0..99999, by a cross join. */
    private static void createBigTable(Statement s) throws SQLException {
        s.executeUpdate("CREATE TABLE a (x INTEGER)");
        s.executeUpdate("CREATE TABLE b (y INTEGER)");
        StringBuilder values = new StringBuilder("INSERT INTO a VALUES (0)");
        for (int i = 1; i < 1000; i++) {
            values.append(", (").append(i).append(')');
        }
        assertEquals(1000, s.executeUpdate(values.toString()));
        assertEquals(100, s.executeUpdate("INSERT INTO b SELECT x FROM a WHERE x < 100"));
        assertEquals(100_000, s.executeUpdate("CREATE TABLE big AS SELECT a.x * 100 + b.y AS v FROM a, b"));
    }

    @Test
    void largeResultIsFetchedInManyFrames() throws SQLException {
        try (Statement s = connect().createStatement()) {
            createBigTable(s);
            s.setFetchSize(1000);
            try (ResultSet rs = s.executeQuery("SELECT v FROM big ORDER BY v")) {
                int expected = 0;
                while (rs.next()) {
                    assertEquals(expected++, rs.getInt(1));
                }
                assertEquals(100_000, expected);
            }
            s.setMaxRows(5);
            try (ResultSet rs = s.executeQuery("SELECT v FROM big")) {
                int rows = 0;
                while (rs.next()) {
                    rows++;
                }
                assertEquals(5, rows);
            }
        }
    }

    /**
     * Runs a query that would take minutes in the background, lets {@code interrupt} stop it
     * and returns the failure the query ended with.
     */
    SQLException interruptLongQuery(Statement statement, Runnable interrupt) throws Exception {
        try (Statement s = statement.getConnection().createStatement()) {
            createBigTable(s);
        }
        CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() -> {
            // Ten billion pairs: it runs until cancelled.
            try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM big p, big q WHERE p.v + q.v > 0")) {
                rs.next();
                return null;
            } catch (SQLException e) {
                return e;
            }
        });
        Thread.sleep(1000);
        interrupt.run();
        return failure.get(60, TimeUnit.SECONDS);
    }

    @Test
    void closingTheConnectionCancelsItsRunningQuery() throws Exception {
        Connection other = connect();
        Connection c = newConnection(new Properties());
        SQLException e = interruptLongQuery(c.createStatement(), () -> {
            try {
                c.close();
            } catch (SQLException closeFailure) {
                throw new AssertionError(closeFailure);
            }
        });
        assertEquals("57014", e == null ? null : e.getSQLState(), String.valueOf(e));
        assertEquals(1L, scalar(other, "SELECT COUNT(*) FROM a WHERE x = 0"), "the database goes on");
    }

    @Test
    void abandonedResultsAreReleased() throws SQLException {
        Connection c = connect();
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t AS SELECT * FROM (VALUES (1), (2), (3)) AS v(x)");
            s.setFetchSize(1);
            ResultSet first = s.executeQuery("SELECT x FROM t");
            assertTrue(first.next());
            // Running the statement again closes the first result, read or not.
            try (ResultSet second = s.executeQuery("SELECT x FROM t ORDER BY x DESC")) {
                assertTrue(second.next());
                assertEquals(3, second.getInt(1));
            }
            assertTrue(s.executeQuery("SELECT x FROM t").next());
        }
        // The statement closed with its result unread; the leak check in tearDown would see it.
    }

    @Test
    void executorIsAConnectionProperty() throws SQLException {
        Properties cpu = new Properties();
        cpu.setProperty("executor", "cpu");
        assertEquals(2L, scalar(connect(cpu), "SELECT 1 + 1"));
        Properties bogus = new Properties();
        bogus.setProperty("executor", "abacus");
        assertEquals("22023", sqlState(assertThrows(Exception.class, () -> connect(bogus))));
    }

    /**
     * The SQLSTATE of a failure. The stock remote client lets a failed open-connection request
     * escape from {@code DriverManager.getConnection} unwrapped; the state is still there.
     */
    static String sqlState(Exception e) {
        return e instanceof AvaticaClientRuntimeException a ? a.getSqlState() : ((SQLException) e).getSQLState();
    }

    @Test
    void autoCommitStaysOnBecauseEveryStatementCommits() throws SQLException {
        Connection c = connect();
        assertTrue(c.getAutoCommit());
        c.setAutoCommit(false);
        assertTrue(c.getAutoCommit(), "the server says what it does");
        c.commit();
        c.rollback();
    }

    static long scalar(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    static List<String> column(ResultSet rs, String name) throws SQLException {
        try (rs) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(name));
            }
            return values;
        }
    }
}
