package io.warpdb.tools;

import io.warpdb.core.batch.Batch;
import io.warpdb.jdbc.WarpServer;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Times fetching whole results from a WarpDB server through each kind of client: WarpDB's
 * Avatica driver, the stock Avatica driver, the stock Arrow Flight SQL JDBC driver, a plain Flight
 * SQL client reading record batches (strings as Arrow dictionaries, and as UTF-8), and DuckDB's
 * JDBC driver in process on the same data; and, as the floor, the same query run in process
 * with no wire, its executor batches drained. The JDBC clients read every value with
 * {@code getObject}; the Flight client only receives the batches (what pandas or Polars would
 * take over). MB/s counts the result's size as Arrow buffers with UTF-8 strings, measured on the
 * Flight stream, for every client, so that the rates compare.
 */
final class FetchBenchmark {
    static final String SCAN = "SELECT * FROM lineitem";
    static final String AGGREGATE = "SELECT l_orderkey, COUNT(*) AS n, SUM(l_quantity) AS qty, SUM(l_extendedprice) AS price,"
            + " AVG(l_discount) AS discount, SUM(l_tax) AS tax, MIN(l_shipdate) AS first_ship, MAX(l_receiptdate) AS last_receipt,"
            + " MIN(l_shipmode) AS mode, MAX(l_comment) AS note FROM lineitem GROUP BY l_orderkey";

    /** One client's fetch of one query. */
    record Timing(String client, String query, long rows, double seconds) {
    }

    private final WarpServer server;
    private final Database database;
    private final String executor;
    private final Connection duckdb;
    private final PrintStream out;

    /** {@code server} serves {@code database}; the in-process floor runs on {@code executor} as the server does. */
    FetchBenchmark(WarpServer server, Database database, String executor, Connection duckdb, PrintStream out) {
        this.server = server;
        this.database = database;
        this.executor = executor;
        this.duckdb = duckdb;
        this.out = out;
    }

    /**
     * Fetches each query through each client and prints a Markdown table of rows/s and MB/s; the
     * first pass over the queries warms up the JIT and the data and is not printed.
     */
    void run(List<String> queries) throws SQLException {
        for (String query : queries) {
            fetchAll(query, new long[1]);
        }
        out.println("| query | client | rows | s | rows/s | MB/s |");
        out.println("| --- | --- | ---: | ---: | ---: | ---: |");
        for (String query : queries) {
            long[] bytes = new long[1];
            for (Timing t : fetchAll(query, bytes)) {
                out.printf(Locale.ROOT, "| %s | %s | %,d | %.1f | %,.0f | %.1f |%n", t.query, t.client, t.rows, t.seconds,
                        t.rows / t.seconds, bytes[0] / 1e6 / t.seconds);
                out.flush();
            }
        }
    }

    /** One fetch of {@code query} per client; {@code bytes[0]} gets the result's size as Arrow buffers. */
    private List<Timing> fetchAll(String query, long[] bytes) throws SQLException {
        String label = query.equals(SCAN) ? "SELECT * FROM lineitem" : "10-column aggregate";
        List<Timing> timings = new ArrayList<>();
        timings.add(embedded(query, label));
        timings.add(flight(query, label, "dictionary", new long[1]));
        timings.add(flight(query, label, "utf8", bytes));
        timings.add(jdbc("Flight SQL JDBC driver", label, query, () -> DriverManager.getConnection(server.flightUrl(),
                new Properties())));
        timings.add(jdbc("DuckDB JDBC (in process)", label, query, () -> duckdb));
        timings.add(jdbc("Avatica, WarpDB driver", label, query, () -> DriverManager.getConnection(server.warpdbUrl())));
        timings.add(jdbc("Avatica, stock driver", label, query, () -> DriverManager.getConnection(server.jdbcUrl())));
        return timings;
    }

    private interface Opener {
        Connection open() throws SQLException;
    }

    private Timing jdbc(String client, String label, String query, Opener opener) throws SQLException {
        Connection c = opener.open();
        try (Statement s = c.createStatement()) {
            long start = System.nanoTime();
            long rows = 0;
            try (ResultSet rs = s.executeQuery(query)) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int i = 1; i <= columns; i++) {
                        rs.getObject(i);
                    }
                    rows++;
                }
            }
            return new Timing(client, label, rows, (System.nanoTime() - start) / 1e9);
        } finally {
            if (c != duckdb) {
                c.close();
            }
        }
    }

    /** The floor: the query run in process on a session of the served database, its batches drained (no wire, no values read). */
    private Timing embedded(String query, String label) {
        try (Session session = database.newSession()) {
            session.setExecutor(executor);
            long start = System.nanoTime();
            long rows = 0;
            try (StatementResult result = session.execute(query, List.of())) {
                for (Batch next = result.batches().next(); next != null; next = result.batches().next()) {
                    try (Batch batch = next) {
                        rows += batch.rowCount();
                    }
                }
            }
            return new Timing("Embedded, no wire (executor batches)", label, rows, (System.nanoTime() - start) / 1e9);
        }
    }

    /**
     * The plain Flight SQL client, asking for its strings as {@code strings} (dictionary or utf8);
     * {@code bytes[0]} gets the size of the result's Arrow buffers.
     */
    private Timing flight(String query, String label, String strings, long[] bytes) {
        CallHeaders headers = new FlightCallHeaders();
        headers.insert("warpdb-strings", strings);
        HeaderCallOption stringsOption = new HeaderCallOption(headers);
        try (BufferAllocator allocator = new RootAllocator();
                FlightSqlClient client = new FlightSqlClient(FlightClient.builder(allocator,
                        Location.forGrpcInsecure("127.0.0.1", server.flightPort())).build())) {
            long start = System.nanoTime();
            long rows = 0;
            FlightInfo info = client.execute(query, stringsOption);
            for (FlightEndpoint endpoint : info.getEndpoints()) {
                try (FlightStream stream = client.getStream(endpoint.getTicket(), stringsOption)) {
                    while (stream.next()) {
                        VectorSchemaRoot root = stream.getRoot();
                        rows += root.getRowCount();
                        for (FieldVector v : root.getFieldVectors()) {
                            bytes[0] += v.getBufferSize();
                        }
                    }
                }
            }
            return new Timing("Flight SQL, plain Flight client (record batches, strings as " + strings + ")", label, rows,
                    (System.nanoTime() - start) / 1e9);
        } catch (Exception e) {
            throw new IllegalStateException("the Flight SQL fetch failed: " + e.getMessage(), e);
        }
    }
}
