package io.warpdb.cluster;

import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * COPY of a TPC-H {@code lineitem.tbl} (hashed on {@code l_orderkey}) into a cluster of nodes in
 * this process, each on its own durable shard, through node 1: the coordinator's parse of the
 * whole file ({@code copy.parallel = off}) and every node's parse of its byte range ({@code auto},
 * {@link ParallelCopy}), each the best of three runs (or {@code --runs}), the table dropped and
 * created again between runs. Prints a table of rows/s.
 *
 * <p>{@code java -Xmx4g --add-opens=java.base/java.nio=ALL-UNNAMED -cp <cluster test class path>
 * io.warpdb.cluster.ParallelCopyBench <lineitem.tbl> [nodes, default 2] [--runs N] [--transport flight|ucx]}
 */
public final class ParallelCopyBench {
    private static final String LINEITEM = "CREATE TABLE lineitem (l_orderkey BIGINT NOT NULL, l_partkey INT NOT NULL,"
            + " l_suppkey INT NOT NULL, l_linenumber INT NOT NULL, l_quantity DECIMAL(15,2) NOT NULL,"
            + " l_extendedprice DECIMAL(15,2) NOT NULL, l_discount DECIMAL(15,2) NOT NULL, l_tax DECIMAL(15,2) NOT NULL,"
            + " l_returnflag CHAR(1) NOT NULL, l_linestatus CHAR(1) NOT NULL, l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL,"
            + " l_receiptdate DATE NOT NULL, l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL,"
            + " l_comment VARCHAR(44) NOT NULL) WITH (distribution = 'hash(l_orderkey)')";

    private ParallelCopyBench() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]).toAbsolutePath();
        int nodes = 2;
        int runs = 3;
        String transport = "flight";
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--transport" -> transport = args[++i];
                default -> nodes = Integer.parseInt(args[i]);
            }
        }
        System.out.printf(Locale.ROOT, "%s (%.0f MB), %d nodes in one process, transport %s, best of %d%n", file,
                Files.size(file) / 1e6, nodes, transport, runs);
        System.out.println("| path | rows | best time (s) | rows/s | all times (s) |");
        System.out.println("|---|---:|---:|---:|---|");
        for (String parallel : List.of("off", "auto")) {
            System.out.println(measure(file, nodes, runs, transport, parallel));
        }
    }

    /** One line of the table: the COPY with {@code copy.parallel = parallel} on a fresh cluster. */
    private static String measure(Path file, int nodes, int runs, String transport, String parallel) throws Exception {
        Path dir = Files.createTempDirectory("parallel-copy-bench");
        Properties settings = new Properties();
        settings.setProperty("transport", transport);
        settings.setProperty("copy.parallel", parallel);
        try (InProcessCluster cluster = InProcessCluster.start(dir, nodes, settings)) {
            List<Double> seconds = new ArrayList<>();
            long rows = 0;
            try (Session session = cluster.database(0).newSession()) {
                for (int run = 0; run < runs; run++) {
                    execute(session, LINEITEM);
                    long start = System.nanoTime();
                    rows = execute(session, "COPY lineitem FROM '" + file + "'");
                    seconds.add((System.nanoTime() - start) / 1e9);
                    execute(session, "DROP TABLE lineitem");
                }
            }
            double best = seconds.stream().min(Double::compare).orElseThrow();
            return String.format(Locale.ROOT, "| %s | %d | %.2f | %.0f | %s |", parallel.equals("off")
                    ? "coordinator parses (copy.parallel = off)" : "every node parses its range (copy.parallel = auto)", rows, best,
                    rows / best, String.join(", ", seconds.stream().map(s -> String.format(Locale.ROOT, "%.2f", s)).toList()));
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static long execute(Session session, String sql) {
        try (StatementResult result = session.execute(sql, List.of())) {
            return result.isQuery() ? 0 : result.updateCount();
        }
    }
}
