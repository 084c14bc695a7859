package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.Table;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * The repartitioned join of two tables of N rows (BIGINT key and payload, unique keys) on 1, 2 and
 * 3 nodes of one process over loopback: {@code SELECT COUNT(*), SUM(b.p - a.p) FROM a JOIN b ON
 * a.k = b.k} with both tables distributed on their payload, so that both sides are hashed on the
 * key and exchanged all-to-all, then joined on every node (one node joins its own rows, no
 * exchange). Each node's rows are written straight into its shard. Prints the best of three runs:
 * time, input tuples per second (2N / time) in all and per node, and the bytes the exchanges
 * moved between nodes (Arrow buffers) and put on the wire (frames after compression, over UCX;
 * from EXPLAIN ANALYZE).
 *
 * <p>{@code java -cp ... io.warpdb.cluster.RepartitionJoinBench <rows per side, e.g. 2^22> [node counts, default 1 2 3]
 * [--transport flight|ucx] [--compression auto|none] [--shuffle one-level|two-level] [--explain]} (defaults: flight, auto,
 * one-level; two-level puts the nodes in groups of two, n1 and n2, n3 and n4, ..., as if each pair were a host; --explain
 * prints the exchanges' lines of EXPLAIN ANALYZE under each row).
 */
public final class RepartitionJoinBench {
    private static final int BATCH_ROWS = 1 << 16;
    private static final String QUERY = "SELECT COUNT(*), SUM(b.p - a.p) FROM a JOIN b ON a.k = b.k";
    private static final Pattern BYTES = Pattern.compile("by murmur3 of .*\\(rows=\\d+, bytes=(\\d+)(?:, wire bytes=(\\d+))?");

    /** Whether to print the exchanges' lines of EXPLAIN ANALYZE. */
    private static boolean explain;

    private RepartitionJoinBench() {
    }

    public static void main(String[] args) throws Exception {
        long rows = args[0].startsWith("2^") ? 1L << Integer.parseInt(args[0].substring(2)) : Long.parseLong(args[0]);
        List<Integer> nodeCounts = new ArrayList<>();
        Properties settings = new Properties();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--transport" -> settings.setProperty("transport", args[++i]);
                case "--compression" -> settings.setProperty("wire.compression", args[++i]);
                case "--shuffle" -> settings.setProperty("exchange.shuffle", args[++i]);
                case "--explain" -> explain = true;
                default -> nodeCounts.add(Integer.parseInt(args[i]));
            }
        }
        if (nodeCounts.isEmpty()) {
            nodeCounts = List.of(1, 2, 3);
        }
        System.out.println("transport=" + settings.getProperty("transport", "flight") + " compression="
                + settings.getProperty("wire.compression", "auto") + " shuffle=" + settings.getProperty("exchange.shuffle", "one-level"));
        System.out.println("| nodes | rows per side | best time (s) | input tuples/s | per node | bytes | wire bytes | wire bytes per input tuple |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int nodes : nodeCounts) {
            run(rows, nodes, settings);
        }
    }

    private static void run(long rows, int nodes, Properties settings) throws Exception {
        Path dir = Files.createTempDirectory("repartition-join-bench");
        List<Member> members = new ArrayList<>();
        for (int n = 1; n <= nodes; n++) {
            members.add(Member.parse("n" + n + "=127.0.0.1:" + freePort() + ":" + freePort() + ":" + freePort()));
        }
        List<Database> databases = new ArrayList<>();
        List<CompletableFuture<ClusterNode>> starting = new ArrayList<>();
        for (Member m : members) {
            Properties p = new Properties();
            p.putAll(settings);
            for (int n = 0; n < members.size(); n++) {
                p.setProperty("group." + members.get(n).id(), "pair" + n / 2);
            }
            p.setProperty("node.id", m.id());
            p.setProperty("data.dir", m.id());
            p.setProperty("members", String.join(",", members.stream().map(Member::toString).toList()));
            Database database = Database.inMemory("bench-" + m.id());
            databases.add(database);
            ClusterConfig config = ClusterConfig.of(p, dir);
            starting.add(CompletableFuture.supplyAsync(() -> ClusterNode.start(config, database)));
        }
        List<ClusterNode> started = new ArrayList<>();
        try {
            for (CompletableFuture<ClusterNode> s : starting) {
                started.add(s.join());
            }
            try (Session session = databases.get(0).newSession()) {
                for (String table : List.of("a", "b")) {
                    execute(session, "CREATE TABLE " + table + " (k BIGINT NOT NULL, p BIGINT NOT NULL) WITH (distribution = 'hash(p)')");
                }
                for (int n = 0; n < nodes; n++) {
                    // b's row of a key lies half the keys away from a's, mostly on another node; as many rows of both on each
                    // node, so that every node plans the join as the coordinator does
                    fill(databases.get(n), "a", rows * n / nodes, rows * (n + 1) / nodes, 0, rows, 1);
                    fill(databases.get(n), "b", rows * n / nodes, rows * (n + 1) / nodes, rows / 2, rows, 2);
                }
                long best = Long.MAX_VALUE;
                for (int run = 0; run < 3; run++) {
                    long start = System.nanoTime();
                    List<Object> answer = rows(session, QUERY).get(0);
                    best = Math.min(best, System.nanoTime() - start);
                    long expectedSum = rows * (rows - 1) / 2;
                    if (((Number) answer.get(0)).longValue() != rows || ((Number) answer.get(1)).longValue() != expectedSum) {
                        throw new IllegalStateException("wrong answer " + answer + ", expected [" + rows + ", " + expectedSum + "]");
                    }
                }
                long bytes = 0;
                long wire = 0;
                List<String> exchanges = new ArrayList<>();
                for (List<Object> line : rows(session, "EXPLAIN ANALYZE " + QUERY)) {
                    if (((String) line.get(0)).contains("-> Exchange")) {
                        exchanges.add(((String) line.get(0)).strip());
                    }
                    Matcher m = BYTES.matcher((String) line.get(0));
                    if (m.find()) {
                        bytes += Long.parseLong(m.group(1));
                        wire += m.group(2) == null ? 0 : Long.parseLong(m.group(2));
                    }
                }
                double seconds = best / 1e9;
                System.out.printf(Locale.ROOT, "| %d | %d | %.3f | %.3g | %.3g | %d | %s | %s |%n", nodes, rows, seconds, 2 * rows / seconds,
                        2 * rows / seconds / nodes, bytes, wire == 0 && bytes > 0 ? "-" : Long.toString(wire),
                        wire == 0 && bytes > 0 ? "-" : String.format(Locale.ROOT, "%.2f", wire / (2.0 * rows)));
                if (explain) {
                    exchanges.forEach(line -> System.out.println("    " + line));
                }
            }
        } finally {
            started.forEach(ClusterNode::close);
            databases.forEach(Database::close);
        }
    }

    private static void execute(Session session, String sql) {
        try (StatementResult result = session.execute(sql, List.of())) {
            result.updateCount();
        }
    }

    private static List<List<Object>> rows(Session session, String sql) {
        try (StatementResult result = session.execute(sql, List.of())) {
            return Batches.drainRows(result.batches());
        }
    }

    /** The node's table once the log has created it there. */
    private static Table table(Database database, String name) throws InterruptedException {
        for (int wait = 0; wait < 600; wait++) {
            var table = database.catalog().table(name);
            if (table.isPresent()) {
                return table.get();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("table " + name + " did not appear on " + database);
    }

    /** Appends the rows of keys {@code (i + shift) mod rows} for i in [from, to), payload {@code key * factor}, to the node's shard of {@code name}. */
    private static void fill(Database database, String name, long from, long to, long shift, long rows, long factor)
            throws InterruptedException {
        Table table = table(database, name);
        Schema schema = table.schema();
        List<Batch> batches = new ArrayList<>();
        for (long start = from; start < to; start += BATCH_ROWS) {
            int count = (int) Math.min(BATCH_ROWS, to - start);
            List<FieldVector> vectors = new ArrayList<>();
            BigIntVector k = new BigIntVector("k", database.allocator());
            BigIntVector p = new BigIntVector("p", database.allocator());
            k.allocateNew(count);
            p.allocateNew(count);
            for (int i = 0; i < count; i++) {
                long key = (start + i + shift) % rows;
                k.set(i, key);
                p.set(i, key * factor);
            }
            k.setValueCount(count);
            p.setValueCount(count);
            vectors.add(k);
            vectors.add(p);
            batches.add(new Batch(schema, vectors, java.util.Arrays.asList(null, null), count));
        }
        table.append(Batches.of(schema, batches));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
