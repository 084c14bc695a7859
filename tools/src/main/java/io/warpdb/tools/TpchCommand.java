package io.warpdb.tools;

import io.warpdb.sql.Database;
import io.warpdb.jdbc.Databases;
import io.warpdb.jdbc.ServerConfig;
import io.warpdb.jdbc.WarpServer;
import io.warpdb.tpch.BenchChart;
import io.warpdb.tpch.ClusterLoader;
import io.warpdb.tpch.ConcurrentClients;
import io.warpdb.tpch.DuckDbReference;
import io.warpdb.tpch.JdbcTarget;
import io.warpdb.tpch.LoadReport;
import io.warpdb.tpch.MemoryReport;
import io.warpdb.tpch.ProcessMemory;
import io.warpdb.tpch.TblFiles;
import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.ResultTable;
import io.warpdb.tpch.StorageReport;
import io.warpdb.tpch.SuiteBench;
import io.warpdb.tpch.TpchData;
import io.warpdb.tpch.TpchGenerator;
import io.warpdb.tpch.TpchLoader;
import io.warpdb.tpch.TpchQueries;
import io.warpdb.tpch.TpchQuery;
import io.warpdb.tpch.SuiteRunner;
import io.warpdb.tpch.TpchSchema;
import io.warpdb.tpch.SuiteSetup;
import io.warpdb.tpch.WarpDbTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code warpdb tpch gen|load|run|bench}: the bundled TPC-H suite. Data is generated with the
 * TPC-H generator (or read from {@code .tbl} files) and kept in a durable WarpDB database
 * directory, loaded on first use, or with {@code --in-memory} loaded into memory on every run;
 * DuckDB, loaded in-process from the same data, is the reference answer and the benchmark peer.
 */
@Command(name = "tpch", mixinStandardHelpOptions = true, description = "Generate, load, run and benchmark TPC-H.",
        subcommands = {TpchCommand.Gen.class, TpchCommand.Load.class, TpchCommand.Run.class, TpchCommand.Bench.class,
                TpchCommand.Stress.class, TpchCommand.Fetch.class, TpchCommand.Storage.class})
public final class TpchCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /**
     * A connection to the cluster at {@code url} holding {@code tables}: those it lacks are loaded
     * from the .tbl files ({@code --tbl}, else generated), and the time it took printed.
     */
    static Connection clusterLoaded(Common common, String url, List<TpchSchema.Table> tables) throws SQLException {
        Path tblDir = common.tbl != null ? common.tbl : Path.of("data", "tpch-sf" + SuiteOptions.format(common.scaleFactor) + "-tbl");
        if (!TblFiles.present(tblDir)) {
            System.out.print(TblFiles.write(new TpchGenerator(common.scaleFactor), tblDir, common.threads).format());
        }
        Connection connection = DriverManager.getConnection(url);
        try {
            long start = System.nanoTime();
            List<String> loaded = ClusterLoader.loadMissing(connection, tblDir, tables);
            if (!loaded.isEmpty()) {
                System.out.printf(Locale.ROOT, "cluster: loaded %s from %s in %.1f s%n", loaded, tblDir, (System.nanoTime() - start) / 1e9);
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Options every subcommand shares. */
    static final class Common extends SuiteOptions {
        @Option(names = "--tbl", description = "Read dbgen .tbl files from this directory instead of generating.")
        Path tbl;

        @Override
        String suite() {
            return "tpch";
        }

        TpchData source() {
            return tbl != null ? new TblFiles(tbl) : new TpchGenerator(scaleFactor);
        }
    }

    /** Which queries run and bench run; only the tables they read are loaded. */
    static final class QuerySelection {
        @Option(names = "--queries", split = ",", paramLabel = "N",
                description = "Query numbers to run, e.g. 1,6 (default: all 22); only the tables they read are loaded.")
        List<Integer> numbers = List.of();

        List<TpchQuery> queries() {
            return TpchQueries.select(numbers);
        }
    }

    @Command(name = "gen", mixinStandardHelpOptions = true, description = "Write the data as dbgen .tbl files.")
    static final class Gen implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--out", description = "Directory for the .tbl files (default: data/tpch-sf<SF>-tbl).")
        Path out;

        @Override
        public Integer call() {
            Path dir = out != null ? out : Path.of("data", "tpch-sf" + SuiteOptions.format(common.scaleFactor) + "-tbl");
            System.out.print(TblFiles.write(new TpchGenerator(common.scaleFactor), dir, common.threads).format());
            System.out.println("wrote " + dir);
            return 0;
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = "Load the data into the database directory, or with --cluster into a running cluster.")
    static final class Load implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--cluster", paramLabel = "URL",
                description = "Load the tables a running WarpDB cluster lacks instead, through its coordinator's JDBC URL (e.g."
                        + " jdbc:warpdb:remote:http://127.0.0.1:8765), as `tpch bench --cluster` does: created hashed on their"
                        + " keys and loaded by COPY of the .tbl files (--tbl, else generated).")
        String cluster;

        @Override
        public Integer call() {
            if (cluster != null) {
                try {
                    clusterLoaded(common, cluster, TpchSchema.tables()).close();
                    return 0;
                } catch (SQLException e) {
                    throw new IllegalStateException("cluster " + cluster + ": " + e.getMessage(), e);
                }
            }
            try (Database db = common.open()) {
                TpchLoader.drop(db);
                LoadReport report = TpchLoader.load(db, common.source(), common.threads);
                System.out.print(report.format());
                System.out.println("loaded into " + common.where());
            }
            return 0;
        }
    }

    @Command(name = "storage", mixinStandardHelpOptions = true,
            description = "Print, as Markdown, the encodings and bytes of lineitem's and orders' columns in the database "
                    + "directory, and its size next to a DuckDB file of the same data (docs/storage.md).")
    static final class Storage implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--scratch", required = true, description = "Directory for the DuckDB database file.")
        Path scratch;

        @Override
        public Integer call() throws Exception {
            if (common.inMemory) {
                throw new IllegalArgumentException("storage reports on a database directory, not --in-memory");
            }
            StorageReport.write(common.dataDirectory(), common.scaleFactor, scratch, System.out);
            return 0;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run the queries once and check every answer against DuckDB; exit 1 on any FAIL.")
    static final class Run implements Callable<Integer> {
        @Mixin
        Common common;

        @Mixin
        QuerySelection selection;

        @Option(names = "--executor", description = "auto, cpu or gpu (default: auto).")
        String executor = "auto";

        @Option(names = "--explain-analyze", paramLabel = "FILE",
                description = "After the checks, run each query once more under EXPLAIN ANALYZE and write its plan to FILE: the"
                        + " executor, rows, time, kernel time, copies and device-memory traffic of every node; on the GPU, each"
                        + " query's roofline at the end (at 3000 GB/s).")
        Path explainAnalyze;

        @Override
        public Integer call() {
            List<TpchQuery> queries = selection.queries();
            try (SuiteSetup setup = setup(common, queries, List.of(executor)); WarpDbTarget warpdb = setup.warpdb(executor)) {
                List<SuiteRunner.Outcome> outcomes = new SuiteRunner(warpdb, setup.reference()).runAll(queries, System.out);
                if (explainAnalyze != null) {
                    ExplainAnalyzeFile.write(List.of(warpdb), queries, explainAnalyze,
                            RooflineTable.H100_COPY_GIGABYTES_PER_SECOND);
                }
                return SuiteRunner.allOk(outcomes) ? 0 : 1;
            }
        }
    }

    @Command(name = "bench", mixinStandardHelpOptions = true,
            description = "Time each query (median of --runs after --warmups) on each WarpDB executor and on DuckDB; print the ratios.")
    static final class Bench implements Callable<Integer> {
        @Mixin
        Common common;

        @Mixin
        QuerySelection selection;

        @Option(names = "--executor", split = ",", paramLabel = "EXECUTOR",
                description = "auto, cpu, gpu (data resident in device memory) or gpu-cold (device column cache emptied before"
                        + " each run, so times include the copies), or several to compare on the same data, e.g. cpu,gpu"
                        + " (default: auto).")
        List<String> executors = List.of("auto");

        @Option(names = "--warmups", description = "Untimed runs per query (default: 1).")
        int warmups = 1;

        @Option(names = "--runs", description = "Timed runs per query (default: 3).")
        int runs = 3;

        @Option(names = "--chart", description = "Also draw the per-query comparison (of the first executor) as a PNG bar chart.")
        Path chart;

        @Option(names = "--no-plan-cache",
                description = "Plan every run afresh (SET plan_cache = off), so that WarpDB's times include parsing and optimising.")
        boolean noPlanCache;

        @Option(names = "--explain-analyze", paramLabel = "FILE",
                description = "After timing, run each query once more under EXPLAIN ANALYZE on the first executor (and on the"
                        + " cluster, with --cluster) and write the plans to FILE, ending with each query's roofline: kernel"
                        + " time against the time its device bytes would take at --copy-bandwidth.")
        Path explainAnalyze;

        @Option(names = "--copy-bandwidth", paramLabel = "GBPS",
                description = "The device memory bandwidth the --explain-analyze roofline reads queries against, in GB/s"
                        + " (default: 3000, the H100's measured copy bandwidth).")
        double copyGigabytesPerSecond = RooflineTable.H100_COPY_GIGABYTES_PER_SECOND;

        @Option(names = "--cluster", paramLabel = "URL",
                description = "Also time the queries on a running WarpDB cluster through its coordinator's JDBC URL (e.g."
                        + " jdbc:warpdb:remote:http://127.0.0.1:8765), with the first executor; the tables it lacks are created"
                        + " hashed on their keys and loaded by COPY of .tbl files (--tbl, else generated into"
                        + " data/tpch-sf<SF>-tbl), read by the coordinator from this machine's disk.")
        String cluster;

        @Override
        public Integer call() throws IOException {
            List<TpchQuery> queries = selection.queries();
            Map<String, QueryTarget> targets = new LinkedHashMap<>();
            List<AutoCloseable> opened = new ArrayList<>();
            ColdGpuTarget cold = null;
            try (SuiteSetup setup = setup(common, queries, executors.stream().map(Bench::executorOf).toList())) {
                for (String e : executors) {
                    WarpDbTarget target = setup.warpdb(executorOf(e));
                    if (noPlanCache) {
                        target.withoutPlanCache();
                    }
                    QueryTarget timed = target;
                    if (e.equals(ColdGpuTarget.LABEL)) {
                        cold = new ColdGpuTarget(target);
                        timed = cold;
                    }
                    opened.add((AutoCloseable) timed);
                    targets.put(e, timed);
                }
                if (cluster != null) {
                    Connection connection = clusterConnection(queries);
                    opened.add(connection);
                    targets.put("cluster", new JdbcTarget("WarpDB cluster (" + executorOf(executors.get(0)) + ")", connection));
                }
                String title = "TPC-H SF " + SuiteOptions.format(common.scaleFactor) + ", WarpDB (" + String.join(", ", executors) + ") vs DuckDB";
                SuiteBench.Report report = new SuiteBench(targets, setup.reference(), warmups, runs).run(title, queries, System.out);
                if (cold != null) {
                    System.out.print(cold.transfers(queries).format());
                }
                System.out.print(ProcessMemory.now().format());
                if (chart != null) {
                    BenchChart.write(report, chart);
                    System.err.println("chart written to " + chart);
                }
                if (explainAnalyze != null) {
                    List<QueryTarget> explained = new ArrayList<>(List.of(targets.get(executors.get(0))));
                    if (cluster != null) {
                        explained.add(targets.get("cluster"));
                    }
                    ExplainAnalyzeFile.write(explained, queries, explainAnalyze, copyGigabytesPerSecond);
                }
                return report.timings().stream().allMatch(SuiteBench.Timing::counts) ? 0 : 1;
            } finally {
                for (AutoCloseable target : opened) {
                    try {
                        target.close();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }

        /** A connection to the cluster on the first executor, with the tables {@code queries} read loaded. */
        private Connection clusterConnection(List<TpchQuery> queries) {
            try {
                Connection connection = clusterLoaded(common, cluster, TpchQueries.tablesRead(queries));
                try (Statement s = connection.createStatement()) {
                    s.execute("SET executor = '" + executorOf(executors.get(0)) + "'");
                    return connection;
                } catch (SQLException | RuntimeException e) {
                    connection.close();
                    throw e;
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cluster " + cluster + ": " + e.getMessage(), e);
            }
        }

        /** The executor behind a label: {@code gpu-cold} is the GPU executor. */
        private static String executorOf(String label) {
            return label.equals(ColdGpuTarget.LABEL) ? "gpu" : label;
        }
    }

    @Command(name = "fetch", mixinStandardHelpOptions = true,
            description = "Serve lineitem with a WarpDB server (Avatica and Arrow Flight SQL) and time fetching SELECT * FROM"
                    + " lineitem and a 10-column aggregate result through WarpDB's Avatica driver, the stock Avatica driver,"
                    + " the Flight SQL JDBC driver, a plain Flight SQL client (strings as dictionaries and as UTF-8), and"
                    + " DuckDB's JDBC driver on the same data, and the same queries in process with no wire as the floor;"
                    + " print rows/s and MB/s (docs/benchmarks.md).")
    static final class Fetch implements Callable<Integer> {
        @Mixin
        Common common;

        @Option(names = "--executor", description = "Executor of the server's connections: auto, cpu or gpu (default: auto).")
        String executor = "auto";

        @Override
        public Integer call() throws SQLException {
            List<TpchSchema.Table> tables = List.of(TpchSchema.LINEITEM);
            String location = common.inMemory ? Databases.MEMORY + "tpch-fetch" : Databases.directory(common.dataDirectory().toString());
            try (Databases.Lease lease = Databases.shared().acquire(location); DuckDbReference reference = DuckDbReference.open()) {
                LoadReport loaded = TpchLoader.loadMissing(lease.database(), common.source(), common.threads, tables);
                if (loaded != null) {
                    System.out.print(loaded.format());
                }
                System.out.print(reference.load(common.source(), common.threads, tables).format());
                ServerConfig config = ServerConfig.defaults().withPort(0).withFlightPort(0).withDatabase(location)
                        .withExecutor(executor);
                try (WarpServer server = WarpServer.start(config)) {
                    new FetchBenchmark(server, lease.database(), executor, reference.connection(), System.out).run(List.of(FetchBenchmark.SCAN,
                            FetchBenchmark.AGGREGATE));
                }
            }
            return 0;
        }
    }

    @Command(name = "stress", mixinStandardHelpOptions = true,
            description = "Serve the data with a WarpDB server and run the queries from many JDBC clients at once over the"
                    + " remote driver for a while, checking every answer against DuckDB; print throughput and latency"
                    + " percentiles; exit 1 on any error or wrong answer.")
    static final class Stress implements Callable<Integer> {
        @Mixin
        Common common;

        @Mixin
        QuerySelection selection;

        @Option(names = "--clients", description = "Concurrent JDBC connections (default: ${DEFAULT-VALUE}).")
        int clients = 32;

        @Option(names = "--seconds", description = "How long the clients run (default: ${DEFAULT-VALUE}).")
        int seconds = 300;

        @Option(names = "--executor", description = "Executor of the server's connections: auto, cpu or gpu (default: auto).")
        String executor = "auto";

        @Option(names = "--max-concurrent-queries", paramLabel = "N",
                description = "The server's limit on statements at once (default: the number of cores).")
        int maxConcurrentQueries = Runtime.getRuntime().availableProcessors();

        @Override
        public Integer call() throws InterruptedException {
            List<TpchQuery> queries = selection.queries();
            List<TpchSchema.Table> tables = TpchQueries.tablesRead(queries);
            String location = common.inMemory ? Databases.MEMORY + "tpch-stress" : Databases.directory(common.dataDirectory().toString());
            try (Databases.Lease lease = Databases.shared().acquire(location); DuckDbReference reference = DuckDbReference.open()) {
                LoadReport loaded = TpchLoader.loadMissing(lease.database(), common.source(), common.threads, tables);
                if (loaded != null) {
                    System.out.print(loaded.format());
                }
                System.out.print(reference.load(common.source(), common.threads, tables).format());
                Map<TpchQuery, ResultTable> expected = new LinkedHashMap<>();
                queries.forEach(q -> expected.put(q, reference.query(q.sql())));
                ServerConfig config = ServerConfig.defaults().withPort(0).withDatabase(location).withExecutor(executor)
                        .withQueryQueue(maxConcurrentQueries, Duration.ofMinutes(10));
                try (WarpServer server = WarpServer.start(config)) {
                    System.out.println("server at " + server.warpdbUrl() + ", executor " + executor + ", at most "
                            + maxConcurrentQueries + " statements at once; " + clients + " clients for " + seconds + " s");
                    ConcurrentClients.Report report = ConcurrentClients.run(server.warpdbUrl(), new Properties(), expected, clients,
                            Duration.ofSeconds(seconds), System.out);
                    System.out.print(report.format());
                    return report.errors() == 0 && report.wrongAnswers() == 0 ? 0 : 1;
                }
            }
        }
    }

    /**
     * The database with the tables the queries read (loaded now unless an earlier run did) and
     * DuckDB loaded with the same data. Each executor is checked first, so that an unavailable
     * one fails before minutes of loading.
     */
    private static SuiteSetup setup(Common common, List<TpchQuery> queries, List<String> executors) {
        TpchData data = common.source();
        List<TpchSchema.Table> tables = TpchQueries.tablesRead(queries);
        SuiteSetup setup = common.setup(TpchLoader.parts(data, tables), data.describe(), executors);
        System.out.print(MemoryReport.measure(setup.database(), setup.reference(), tables, common.scaleFactor).format());
        return setup;
    }
}
