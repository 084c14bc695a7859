package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Statement.cancel()}, {@code setQueryTimeout}, {@code SET query_timeout} and the server's
 * {@code --query-timeout-seconds}, embedded and over the remote driver, and Flight SQL's
 * CancelFlightInfo and cancelled calls: the statement fails with SQLSTATE 57014, the connection
 * serves the next statement, and the data is unchanged.
 */
class QueryCancellationTest {
    /** Rows of the table: the query below joins 3000 x 3000 x 50 = 450 million triples, a minute of work or more. */
    private static final int ROWS = 3000;
    private static final String SLOW = "SELECT COUNT(*) FROM t a, t b, (SELECT * FROM t WHERE k < 50) c"
            + " WHERE a.v + b.v + c.v > -1 AND a.k <> b.k";

    private static String database;
    /** Holds the in-memory database open between the tests' connections. */
    private static Connection keeper;
    private static WarpServer server;
    private static WarpServer timingOutServer;

    @BeforeAll
    static void start() throws SQLException {
        database = Databases.MEMORY + "cancel-" + UUID.randomUUID();
        keeper = DriverManager.getConnection("jdbc:warpdb:" + database);
        try (Statement s = keeper.createStatement()) {
            s.execute("CREATE TABLE t (k INTEGER, v BIGINT)");
            StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = 0; i < ROWS; i++) {
                insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i * 7L).append(')');
            }
            assertEquals(ROWS, s.executeUpdate(insert.toString()));
        }
        server = WarpServer.start(ServerConfig.defaults().withPort(0).withDatabase(database));
        timingOutServer = WarpServer.start(ServerConfig.defaults().withPort(0).withDatabase(database)
                .withQueryLimits(new ServerConfig.QueryLimits(300, null)));
    }

    @AfterAll
    static void stop() throws SQLException {
        server.close();
        timingOutServer.close();
        keeper.close();
    }

    private static Connection connect(String how) throws SQLException {
        return DriverManager.getConnection(how.equals("embedded") ? "jdbc:warpdb:" + database : server.warpdbUrl());
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "remote"})
    void cancelFromAnotherThreadStopsTheStatement(String how) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection c = connect(how); Statement s = c.createStatement()) {
            Future<?> running = pool.submit(() -> s.executeQuery(SLOW));
            Thread.sleep(400);
            long start = System.nanoTime();
            s.cancel();
            Exception e = assertThrows(Exception.class, () -> running.get(30, TimeUnit.SECONDS));
            SQLException cause = assertInstanceOf(SQLException.class, e.getCause());
            assertEquals("57014", cause.getSQLState(), cause.getMessage());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "cancelled promptly");
            assertServesAgain(c);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void flightCancelFlightInfoStopsTheStatementItsStreamRuns(@TempDir Path dir) throws Exception {
        try (WarpServer flight = flightServer(dir.resolve("queries.log"));
                BufferAllocator allocator = new RootAllocator();
                FlightSqlClient client = flightClient(flight, allocator)) {
            // 9,000,000 rows, made batch by batch as the stream is read (the server waits while the client reads
            // nothing), so that the stream is still running when the cancel comes.
            FlightInfo info = client.execute("SELECT a.k, b.v FROM t a, t b");
            try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                assertTrue(stream.next());
                assertEquals(CancelStatus.CANCELLED, client.cancelFlightInfo(new CancelFlightInfoRequest(info)).getStatus());
                FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                    while (stream.next()) {
                        // the batches sent before the cancel
                    }
                });
                assertTrue(e.getMessage().contains("SQLSTATE 57014"), e.getMessage());
            }
            assertEquals(ROWS, flightCount(client));
            // A query whose stream was read to its end has finished: there is nothing left to cancel.
            FlightInfo done = client.execute("SELECT k FROM t WHERE k < 10");
            try (FlightStream stream = client.getStream(done.getEndpoints().get(0).getTicket())) {
                while (stream.next()) {
                    // every batch
                }
            }
            assertEquals(CancelStatus.NOT_CANCELLABLE, client.cancelFlightInfo(new CancelFlightInfoRequest(done)).getStatus());
        }
    }

    @Test
    void flightCallCancelledByItsClientCancelsTheQuery(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("queries.log");
        try (WarpServer flight = flightServer(log);
                BufferAllocator allocator = new RootAllocator();
                FlightSqlClient client = flightClient(flight, allocator)) {
            // A first call brings the session's cookie (the cancelled call below gets no reply to bring one).
            assertEquals(ROWS, flightCount(client));
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class,
                    () -> client.execute(SLOW, CallOptions.timeout(500, TimeUnit.MILLISECONDS)));
            assertEquals(CallStatus.TIMED_OUT.code(), e.status().code(), e.getMessage());
            long start = System.nanoTime();
            // The same session, which runs one statement at a time: it serves this one once SLOW has ended.
            assertEquals(ROWS, flightCount(client));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "cancelled promptly");
            assertTrue(Files.readString(log).lines().anyMatch(line -> line.contains(" 57014 ") && line.contains("a.k <> b.k")),
                    Files.readString(log));
        }
    }

    private static WarpServer flightServer(Path queryLog) {
        return WarpServer.start(ServerConfig.defaults().withPort(0).withFlightPort(0).withDatabase(database).withQueryLog(queryLog));
    }

    /** A plain Flight SQL client whose calls share one session, by its cookie, as ADBC's and the JDBC driver's do. */
    private static FlightSqlClient flightClient(WarpServer flight, BufferAllocator allocator) {
        return new FlightSqlClient(FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", flight.flightPort()))
                .intercept(new ClientCookieMiddleware.Factory()).build());
    }

    private static long flightCount(FlightSqlClient client) throws Exception {
        FlightInfo info = client.execute("SELECT COUNT(*) FROM t", CallOptions.timeout(20, TimeUnit.SECONDS));
        try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket(), CallOptions.timeout(20, TimeUnit.SECONDS))) {
            assertTrue(stream.next());
            return ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "remote"})
    void queryTimeoutOfTheStatement(String how) throws SQLException {
        try (Connection c = connect(how); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            assertEquals(1, s.getQueryTimeout());
            SQLTimeoutException e = assertThrows(SQLTimeoutException.class, () -> s.executeQuery(SLOW));
            assertEquals("57014", e.getSQLState());
            s.setQueryTimeout(0);
            assertServesAgain(c);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "remote"})
    void queryTimeoutOfTheSession(String how) throws SQLException {
        try (Connection c = connect(how); Statement s = c.createStatement()) {
            s.execute("SET query_timeout = '200ms'");
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(SLOW));
            assertEquals("57014", e.getSQLState());
            assertTrue(e.getMessage().contains("timeout of 200 ms"), e.getMessage());
            s.execute("SET query_timeout = 0");
            assertServesAgain(c);
            SQLException bad = assertThrows(SQLException.class, () -> s.execute("SET query_timeout = 'soon'"));
            assertEquals("22023", bad.getSQLState());
        }
    }

    @Test
    void theServersQueryTimeout() throws SQLException {
        try (Connection c = DriverManager.getConnection(timingOutServer.warpdbUrl()); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(SLOW));
            assertEquals("57014", e.getSQLState());
            assertServesAgain(c);
        }
    }

    /** The connection runs the next statement, and the table is as it was. */
    private static void assertServesAgain(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(v) FROM t")) {
            assertTrue(r.next());
            assertEquals(ROWS, r.getLong(1));
            assertEquals(7L * ROWS * (ROWS - 1) / 2, r.getLong(2));
        }
    }
}
