package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class WarpCliTest {
    /** Runs {@code warpdb} in this JVM and returns its exit status and output. */
    private static String[] run(String... arguments) {
        StringWriter out = new StringWriter();
        int status = WarpCli.commandLine().setOut(new PrintWriter(out, true)).execute(arguments);
        return new String[] {String.valueOf(status), out.toString()};
    }

    /** The README's main command, on a fresh directory: it loads SF 0.01, then every answer matches DuckDB's. */
    @Test
    void tpchRunLoadsAndAnswersEveryQuery(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String[] result = runCapturingSystemOut("tpch", "run", "--sf", "0.01", "--data", dir.resolve("tpch").toString());
        String out = result[1];
        assertEquals("0", result[0], out);
        assertTrue(out.contains("22 of 22 OK, 0 FAIL"), out);
        assertTrue(out.contains("lineitem         60,175 rows"), out);
    }

    /** Runs {@code warpdb} in this JVM, capturing what it prints to System.out (the tpch commands print there). */
    private static String[] runCapturingSystemOut(String... arguments) {
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        java.io.PrintStream original = System.out;
        System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            String status = run(arguments)[0];
            return new String[] {status, captured.toString(java.nio.charset.StandardCharsets.UTF_8)};
        } finally {
            System.setOut(original);
        }
    }

    /** Only Q6 runs, so only lineitem is loaded (in memory), and its answer is checked. */
    @Test
    void tpchBenchRunsTheChosenQueriesInMemory() {
        String[] result = runCapturingSystemOut("tpch", "bench", "--sf", "0.01", "--queries", "6", "--executor", "cpu",
                "--in-memory", "--runs", "1");
        String out = result[1];
        assertEquals("0", result[0], out);
        assertTrue(out.contains("lineitem         60,175 rows"), out);
        assertTrue(!out.contains("orders"), "only the tables Q6 reads are loaded: " + out);
        assertTrue(out.matches("(?s).*\\nq06 +[0-9.]+ +[0-9.]+ +[0-9.]+  OK\\n.*"), out);
        assertTrue(!out.contains("q01"), out);
        assertTrue(out.matches("(?s).*\\ngeomean ratio [0-9]+\\.[0-9]{3}\\nprocess memory: resident .*"), out);
        assertTrue(out.matches("(?s).*\\nlineitem +60,175 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\\n.*"), "table sizes: " + out);
        assertTrue(!out.contains("host-to-device"), "copies are reported for gpu-cold only: " + out);
    }

    /** With {@code --duckdb-file} the first run loads DuckDB's tables into the file and the next one uses them as they are. */
    @Test
    void tpchBenchKeepsDuckDbsTablesInAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String file = dir.resolve("duck.db").toString();
        String[] first = runCapturingSystemOut("tpch", "bench", "--sf", "0.01", "--queries", "6", "--executor", "cpu", "--in-memory",
                "--runs", "1", "--duckdb-file", file);
        assertEquals("0", first[0], first[1]);
        assertTrue(first[1].matches("(?s).*\\nlineitem +60,175 rows .*-> DuckDB.*"), first[1]);
        String[] second = runCapturingSystemOut("tpch", "bench", "--sf", "0.01", "--queries", "1,6", "--executor", "cpu", "--in-memory",
                "--runs", "1", "--duckdb-file", file);
        assertEquals("0", second[0], second[1]);
        assertTrue(second[1].contains("DuckDB: using the tables in " + file), second[1]);
        assertTrue(second[1].matches("(?s).*\\nq01( +[0-9.]+){3}  OK\\nq06( +[0-9.]+){3}  OK\\n.*"), second[1]);
    }

    /** Several executors share one load; each gets a time and a ratio column. */
    @Test
    void tpchBenchComparesSeveralExecutors() {
        String[] result = runCapturingSystemOut("tpch", "bench", "--sf", "0.01", "--queries", "1,6", "--executor", "cpu,auto",
                "--in-memory", "--runs", "1");
        String out = result[1];
        assertEquals("0", result[0], out);
        assertTrue(out.contains("TPC-H SF 0.01, WarpDB (cpu, auto) vs DuckDB"), out);
        assertTrue(out.matches("(?s).*\\nquery +cpu_ms +auto_ms +duckdb_ms +cpu/duck +auto/duck  answer\\n.*"), out);
        assertTrue(out.matches("(?s).*\\nq01( +[0-9.]+){5}  OK\\nq06( +[0-9.]+){5}  OK\\n.*"), out);
        assertTrue(out.matches("(?s).*\\ngeomean ratio cpu [0-9.]+, auto [0-9.]+\\nprocess memory: .*"), out);
    }

    /** {@code tpch load --cluster} to a URL where no node answers names the URL and exits 1. */
    @Test
    void tpchLoadIntoAClusterNoNodeServesNamesTheUrl(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path tbl = dir.resolve("tbl");
        assertEquals(0, WarpCli.commandLine().execute("tpch", "gen", "--sf", "0.01", "--out", tbl.toString()));
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        StringWriter err = new StringWriter();
        String url = "jdbc:warpdb:remote:http://127.0.0.1:" + port;
        int status = WarpCli.commandLine().setErr(new PrintWriter(err, true))
                .execute("tpch", "load", "--sf", "0.01", "--tbl", tbl.toString(), "--cluster", url);
        assertEquals(1, status);
        assertTrue(err.toString().startsWith("warpdb: cluster " + url + ": "), err.toString());
    }

    /** An executor that cannot run here is named, with the reason, before anything is loaded. */
    @Test
    void tpchBenchFailsFastOnAnUnavailableExecutor() {
        org.junit.jupiter.api.Assumptions.assumeFalse(io.warpdb.core.exec.ExecutorRegistry.load().providers().stream()
                .anyMatch(p -> p.name().equals("gpu") && p.availability().supported()), "the GPU executor runs here");
        StringWriter err = new StringWriter();
        int status = WarpCli.commandLine().setErr(new PrintWriter(err, true))
                .execute("tpch", "bench", "--sf", "0.01", "--executor", "cpu,gpu", "--in-memory");
        assertEquals(1, status);
        assertTrue(err.toString().contains("executor 'gpu' is not available: "), err.toString());
        StringWriter coldErr = new StringWriter();
        assertEquals(1, WarpCli.commandLine().setErr(new PrintWriter(coldErr, true))
                .execute("tpch", "bench", "--sf", "0.01", "--executor", "gpu-cold", "--in-memory"));
        assertTrue(coldErr.toString().contains("executor 'gpu' is not available: "), "gpu-cold is the GPU executor: " + coldErr);
    }

    /** Several remote clients at once against one server, every answer checked. */
    @Test
    void tpchStressRunsClientsAgainstAServer() {
        String[] result = runCapturingSystemOut("tpch", "stress", "--sf", "0.01", "--in-memory", "--queries", "1,6,13",
                "--clients", "4", "--seconds", "3", "--executor", "cpu");
        String out = result[1];
        assertEquals("0", result[0], out);
        assertTrue(out.contains("server at jdbc:warpdb:remote:http://127.0.0.1:"), out);
        assertTrue(out.matches("(?s).*4 clients, \\d+ s: [1-9]\\d* queries \\([0-9.]+/s\\), 0 errors, 0 wrong answers; latency p50"
                + " [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms.*"), out);
    }

    /** The plan of every query run, with each node's executor and figures, goes to the file named. */
    @Test
    void tpchRunWritesEachQuerysExplainAnalyze(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path plans = dir.resolve("plans.txt");
        String[] result = runCapturingSystemOut("tpch", "run", "--sf", "0.01", "--in-memory", "--queries", "6,13", "--executor",
                "cpu", "--explain-analyze", plans.toString());
        assertEquals("0", result[0], result[1]);
        java.util.List<String> lines = java.nio.file.Files.readAllLines(plans);
        assertEquals("EXPLAIN ANALYZE q06", lines.get(0));
        assertTrue(lines.get(1).startsWith("Aggregate(") && lines.get(1).contains("[cpu] rows=1 time="), lines.toString());
        assertTrue(lines.contains("EXPLAIN ANALYZE q13"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("Join(kind=") && l.contains("[cpu] rows=")), lines.toString());
    }

    /** tpcds run --explain-analyze writes every plan, then the nodes left on the CPU with their reasons: none on the CPU executor. */
    @Test
    void tpcdsRunWritesEachQuerysExplainAnalyzeAndTheNodesLeftOnTheCpu(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path plans = dir.resolve("plans.txt");
        String[] result = runCapturingSystemOut("tpcds", "run", "--sf", "0.01", "--in-memory", "--queries", "3", "--executor", "cpu",
                "--explain-analyze", plans.toString());
        assertEquals("0", result[0], result[1]);
        java.util.List<String> lines = java.nio.file.Files.readAllLines(plans);
        assertEquals("EXPLAIN ANALYZE q03", lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.contains("Aggregate(") && l.contains("[cpu] rows=")), lines.toString());
        assertEquals("Plan nodes left on the CPU: 0", lines.get(lines.size() - 1), lines.toString());
    }

    /**
     * tpcds run --dat loads WarpDB from the .dat files of gen and DuckDB by read_csv of the same
     * files: the answers agree (q40 reads catalog sales and returns and compares DATEs, q93 store
     * sales and returns and their DECIMALs). Only the tables they read are written, to keep the test
     * short. A missing file is named before any load.
     */
    @Test
    void tpcdsRunReadsTheDatFilesOfGen(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.util.List<io.warpdb.tpcds.TpcdsQuery> queries = io.warpdb.tpcds.TpcdsQueries.select(java.util.List.of(40, 93));
        new io.warpdb.tpcds.TpcdsGenerator(0.01).writeDat(io.warpdb.tpcds.TpcdsQueries.tablesRead(queries), dir, 2);
        String[] result = runCapturingSystemOut("tpcds", "run", "--sf", "0.01", "--in-memory", "--dat", dir.toString(), "--queries",
                "40,93", "--executor", "cpu");
        assertEquals("0", result[0], result[1]);
        assertTrue(result[1].contains("2 of 2 OK"), result[1]);
        assertTrue(result[1].contains("(" + dir + " -> DuckDB,"), result[1]);
        StringWriter err = new StringWriter();
        assertEquals(1, WarpCli.commandLine().setErr(new PrintWriter(err, true))
                .execute("tpcds", "run", "--sf", "0.01", "--in-memory", "--dat", dir.toString(), "--queries", "1", "--executor", "cpu"));
        assertTrue(err.toString().contains("missing TPC-DS data files: " + dir.resolve("customer.dat")), err.toString());
    }

    /** The lines that count as left on the CPU: refused at planning with a reason, or rerun on the CPU at run time. */
    @Test
    void explainAnalyzeLinesLeftOnTheCpu() {
        assertTrue(ExplainAnalyzeFile.leftOnCpu("  Aggregate(...)  [cpu; gpu cannot run it: COUNT runs on the CPU] rows=3 time=1.0 ms"));
        assertTrue(ExplainAnalyzeFile.leftOnCpu("  Join(...)  [cpu] rows=3 time=1.0 ms; out of device memory: reran on cpu"));
        assertFalse(ExplainAnalyzeFile.leftOnCpu("  Scan(t)  [gpu] rows=3 time=1.0 ms h2d=0.1 MB"));
        assertFalse(ExplainAnalyzeFile.leftOnCpu("  Scan(t)  [cpu] rows=3 time=1.0 ms"));
    }

    @Test
    void versionIsTheBuilds() {
        String[] result = run("--version");
        assertEquals("0", result[0]);
        assertTrue(result[1].matches("warpdb \\d+\\.\\d+.*\\s*"), result[1]);
    }

    @Test
    void demoLoadsDataAndPrintsQueryResults() {
        String[] result = run("demo", "--url", "jdbc:warpdb:mem:demo-" + UUID.randomUUID());
        assertEquals("0", result[0], result[1]);
        String out = result[1];
        assertTrue(out.contains("Loaded 5 regions, 8 products, 200 customers and 20000 sales."), out);
        assertTrue(out.contains("-- Revenue by region"), out);
        assertTrue(out.contains("| region  |"), out);
        assertTrue(out.contains("5 rows in"), out);
    }

    @Test
    void serverServesRemoteClientsUntilTerminated() throws Exception {
        String name = "cli-" + UUID.randomUUID();
        try (CliProcess server = new CliProcess("server", "--port", "0", "--name", name)) {
            String banner = server.readLine();
            assertTrue(banner != null && banner.startsWith("WarpDB server: database '" + name + "' at jdbc:warpdb:remote:http://"),
                    banner);
            assertTrue(banner.contains("(Avatica clients: jdbc:avatica:remote:url=http://"), banner);
            String url = banner.substring(banner.indexOf("jdbc:"), banner.indexOf(" (Avatica"));
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (x INTEGER)");
                s.executeUpdate("INSERT INTO t VALUES (1), (2), (3)");
                try (ResultSet rs = s.executeQuery("SELECT SUM(x) FROM t")) {
                    assertTrue(rs.next());
                    assertEquals(6, rs.getInt(1));
                }
                assertEquals(name, c.getCatalog());
            }
            server.terminate();
            assertEquals(143, server.waitFor(), "SIGTERM ends the JVM after the shutdown hook ran");
            assertTrue(server.readRest().contains("WarpDB server stopped."));
            int port = Integer.parseInt(url.replaceAll(".*:(\\d+)$", "$1"));
            assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close(), "the port is closed");
        }
    }

    @Test
    void serverServesFlightSqlToTheSqlShellAndLoad(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path csv = dir.resolve("rows.csv");
        java.nio.file.Files.writeString(csv, "k,v\n1,one\n2,two\n3,three\n");
        try (CliProcess server = new CliProcess("server", "--port", "0", "--flight-port", "0", "--name", "flight-" + UUID.randomUUID())) {
            assertTrue(server.readLine().startsWith("WarpDB server: database"));
            String flight = server.readLine();
            assertTrue(flight != null && flight.startsWith("Arrow Flight SQL on port "), flight);
            String url = flight.substring(flight.indexOf("jdbc:arrow-flight-sql://"), flight.indexOf(" (grpc://"));
            try (CliProcess load = new CliProcess("load", "--url", url, "--create", "t", csv.toString())) {
                assertEquals(0, load.waitFor());
                assertTrue(load.readRest().contains("loaded 3 rows into t"));
            }
            try (CliProcess sql = new CliProcess("sql", "-u", url, "--outputformat=csv", "-e", "SELECT SUM(k) AS total FROM t")) {
                assertEquals(0, sql.waitFor());
                String out = sql.readRest();
                assertTrue(out.contains("'6'"), out);
            }
            server.terminate();
            server.waitFor();
        }
    }

    @Test
    void serverExplainsItsSettingsAndRefusesBadOnes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        StringWriter help = new StringWriter();
        assertEquals(0, WarpCli.commandLine().setOut(new PrintWriter(help, true)).execute("server", "--help"));
        for (String option : new String[] {"--config", "--auth", "--users", "--keystore", "--max-concurrent-queries",
                "--queue-timeout-seconds", "--query-log", "--executor", "53000", "truststore=", "--query-timeout-seconds",
                "--query-memory-limit", "57014"}) {
            assertTrue(help.toString().contains(option), option + " in:\n" + help);
        }
        StringWriter err = new StringWriter();
        assertEquals(2, WarpCli.commandLine().setErr(new PrintWriter(err, true)).execute("server", "--auth", "basic"));
        assertTrue(err.toString().contains("BASIC authentication needs a users file (--users)"), err.toString());
        java.nio.file.Path config = dir.resolve("server.properties");
        java.nio.file.Files.writeString(config, "auth = kerberos\n");
        StringWriter badConfig = new StringWriter();
        assertEquals(2, WarpCli.commandLine().setErr(new PrintWriter(badConfig, true)).execute("server", "--config", config.toString()));
        assertTrue(badConfig.toString().contains("server.properties: authentication must be none, basic or digest, not 'kerberos'"),
                badConfig.toString());
        java.nio.file.Files.writeString(config, "query-timeout-seconds = 30\nquery-memory-limit = 1GB\n");
        ServerCommand limited = new ServerCommand();
        new picocli.CommandLine(limited).parseArgs("--config", config.toString(), "--query-timeout-seconds", "45");
        assertEquals(new io.warpdb.jdbc.ServerConfig.QueryLimits(45_000, "1GB"), limited.settings().queryLimits(),
                "the flag wins over the file, the file's memory limit stays");
    }

    @Test
    void sqlShellRunsStatements() throws Exception {
        try (CliProcess sql = new CliProcess("sql", "--outputformat=csv", "-e", "SELECT 40 + 2 AS answer")) {
            assertEquals(0, sql.waitFor());
            String out = sql.readRest();
            assertTrue(out.contains("'ANSWER'") || out.contains("'answer'"), out);
            assertTrue(out.contains("'42'"), out);
        }
    }
}
