package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.Table;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * The repartitioned join of two tables (BIGINT key and payload) on 1, 2, 3, ... loopback nodes:
 * {@code SELECT COUNT(*), SUM(b.p - a.p) FROM a JOIN b ON a.k = b.k} with both tables distributed
 * on their payload, so that both sides are hashed on the key and exchanged all-to-all, then joined
 * on every node (one node joins its own rows, no exchange). Each node's rows are written straight
 * into its shard. Prints the best of three runs (or {@code --runs}): time, input tuples per second (both sides' rows
 * over the time) in all and per node, and the bytes the exchanges moved between nodes (Arrow
 * buffers) and put on the wire (frames after compression, over UCX; from EXPLAIN ANALYZE).
 *
 * <p>Keys: {@code consecutive} (the default; key i on the left, key i + N/2 mod N at the same place
 * on the right: every row matches, and the keys of a part rise in small steps that compress well)
 * or {@code random} (seed 000 section 6.2: unique random keys on the left, each right row matching
 * a left row with probability 0.3, payloads the rows' numbers).
 *
 * <p>Nodes run in this process, or with {@code --processes} one process per node (this class
 * started again with {@code --node}); {@code --gpus} also gives node i the GPU i - 1 alone
 * ({@code -Dwarpdb.gpu.devices}), one node per GPU. {@code --executor gpu} runs the shards'
 * fragments on the GPU (the executor-gpu module on the class path). {@code --per-node} makes the
 * row count per node (weak scaling) instead of in all.
 *
 * <p>{@code java -cp ... io.warpdb.cluster.RepartitionJoinBench <rows per side, e.g. 2^22> [node counts, default 1 2 3]
 * [--keys consecutive|random] [--per-node] [--processes] [--gpus] [--executor cpu|gpu] [--transport flight|ucx]
 * [--compression auto|none] [--shuffle one-level|two-level] [--runs N] [--explain]} (defaults: consecutive, in all, one
 * process, cpu, flight, auto, one-level, best of 3 runs; two-level puts the nodes in groups of two, n1 and n2, n3 and n4,
 * ..., as if each pair were a host; more runs warm the JVMs up, which the per-query fixed costs at small sizes need;
 * --explain prints the exchanges' lines of EXPLAIN ANALYZE under each row).
 */
public final class RepartitionJoinBench {
    private static final int BATCH_ROWS = 1 << 16;
    private static final String QUERY = "SELECT COUNT(*), SUM(b.p - a.p) FROM a JOIN b ON a.k = b.k";
    private static final Pattern BYTES = Pattern.compile("by murmur3 of .*\\(rows=\\d+, bytes=(\\d+)(?:, wire bytes=(\\d+))?");
    /** The lines a node process and the launcher tell each other by (a node's other output passes through). */
    private static final String FILLED = "bench: filled";
    private static final String RESULT = "bench: result ";

    private RepartitionJoinBench() {
    }

    /** What one bench run is: the cluster's settings and how the nodes and their rows are made. */
    private record Options(long rows, boolean perNode, Keys keys, boolean processes, boolean gpus, String executor,
            boolean explain, int runs, Properties settings) {
        long totalRows(int nodes) {
            return perNode ? rows * nodes : rows;
        }

        /** The arguments that give a node process these options. */
        List<String> nodeArguments() {
            List<String> args = new ArrayList<>(List.of(Long.toString(rows), "--keys", keys.name().toLowerCase(Locale.ROOT),
                    "--executor", executor));
            if (perNode) {
                args.add("--per-node");
            }
            if (explain) {
                args.add("--explain");
            }
            args.addAll(List.of("--runs", Integer.toString(runs)));
            settings.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
            return args;
        }
    }

    public static void main(String[] args) throws Exception {
        long rows = args[0].startsWith("2^") ? 1L << Integer.parseInt(args[0].substring(2)) : Long.parseLong(args[0]);
        List<Integer> nodeCounts = new ArrayList<>();
        Properties settings = new Properties();
        Keys keys = Keys.CONSECUTIVE;
        boolean perNode = false;
        boolean processes = false;
        boolean gpus = false;
        boolean explain = false;
        int runs = 3;
        String executor = "cpu";
        int nodeIndex = -1;
        String members = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--transport" -> settings.setProperty("transport", args[++i]);
                case "--compression" -> settings.setProperty("wire.compression", args[++i]);
                case "--shuffle" -> settings.setProperty("exchange.shuffle", args[++i]);
                case "--set" -> {
                    String[] kv = args[++i].split("=", 2);
                    settings.setProperty(kv[0], kv[1]);
                }
                case "--keys" -> keys = Keys.valueOf(args[++i].toUpperCase(Locale.ROOT));
                case "--per-node" -> perNode = true;
                case "--processes" -> processes = true;
                case "--gpus" -> {
                    gpus = true;
                    processes = true;
                }
                case "--executor" -> executor = args[++i];
                case "--explain" -> explain = true;
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--node" -> {
                    nodeIndex = Integer.parseInt(args[++i]);
                    members = args[++i];
                }
                default -> nodeCounts.add(Integer.parseInt(args[i]));
            }
        }
        Options options = new Options(rows, perNode, keys, processes, gpus, executor, explain, runs, settings);
        if (nodeIndex >= 0) {
            runNode(options, nodeIndex, members);
            return;
        }
        if (nodeCounts.isEmpty()) {
            nodeCounts = List.of(1, 2, 3);
        }
        System.out.println("keys=" + keys.name().toLowerCase(Locale.ROOT) + " rows " + (perNode ? "per node" : "in all")
                + " executor=" + executor + (processes ? " one process per node" : " nodes in one process")
                + (gpus ? ", one GPU per node" : "") + " transport=" + settings.getProperty("transport", "flight") + " compression="
                + settings.getProperty("wire.compression", "auto") + " shuffle=" + settings.getProperty("exchange.shuffle", "one-level"));
        System.out.println("| nodes | rows per side | best time (s) | input tuples/s | per node | bytes | wire bytes | wire bytes per input tuple |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int nodes : nodeCounts) {
            List<Member> cluster = InProcessCluster.members(nodes);
            if (processes) {
                runProcesses(options, cluster);
            } else {
                runInProcess(options, cluster);
            }
        }
    }

    /** Every node in this process, each its Raft server, exchange and shard. */
    private static void runInProcess(Options options, List<Member> members) throws Exception {
        Path dir = Files.createTempDirectory("repartition-join-bench");
        List<Database> databases = new ArrayList<>();
        List<CompletableFuture<ClusterNode>> starting = new ArrayList<>();
        for (Member m : members) {
            Database database = Database.inMemory("bench-" + m.id());
            databases.add(database);
            ClusterConfig config = config(options, members, m, dir);
            starting.add(CompletableFuture.supplyAsync(() -> ClusterNode.start(config, database)));
        }
        List<ClusterNode> started = new ArrayList<>();
        try {
            for (CompletableFuture<ClusterNode> s : starting) {
                started.add(s.join());
            }
            try (Session session = databases.get(0).newSession()) {
                createTables(session);
                for (int n = 0; n < members.size(); n++) {
                    fillShard(databases.get(n), options, n, members.size());
                }
                System.out.println(measure(session, options, members.size()));
            }
        } finally {
            started.forEach(ClusterNode::close);
            databases.forEach(Database::close);
        }
    }

    /**
     * One process per node: each starts its node and fills its shard, then the first, the
     * coordinator, runs the query once the launcher has seen every shard filled.
     */
    private static void runProcesses(Options options, List<Member> members) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String membersText = String.join(",", members.stream().map(Member::toString).toList());
        List<Process> nodes = new ArrayList<>();
        try {
            for (int n = 0; n < members.size(); n++) {
                List<String> command = new ArrayList<>();
                command.add(java);
                ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                        .filter(a -> !a.startsWith("-Dwarpdb.gpu.devices=")).forEach(command::add);
                if (options.gpus()) {
                    command.add("-Dwarpdb.gpu.devices=" + n);
                }
                command.addAll(List.of("-cp", System.getProperty("java.class.path"), RepartitionJoinBench.class.getName()));
                command.addAll(options.nodeArguments());
                command.addAll(List.of("--node", Integer.toString(n), membersText));
                nodes.add(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
            }
            List<BufferedReader> outputs = nodes.stream()
                    .map(p -> new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))).toList();
            for (BufferedReader output : outputs) {
                awaitLine(output, FILLED);
            }
            PrintStream coordinator = new PrintStream(nodes.get(0).getOutputStream(), true, StandardCharsets.UTF_8);
            coordinator.println("run");
            String result = awaitLine(outputs.get(0), RESULT);
            System.out.println(result.substring(RESULT.length()));
            for (String line = outputs.get(0).readLine(); line != null && !line.equals(RESULT + "end"); line = outputs.get(0).readLine()) {
                System.out.println(line);
            }
        } finally {
            for (Process node : nodes) {
                node.getOutputStream().close();
            }
            for (Process node : nodes) {
                if (!node.waitFor(60, TimeUnit.SECONDS)) {
                    node.destroyForcibly();
                }
            }
        }
    }

    /** The next line of a node's output that starts with {@code marker}; the lines before it pass through to stderr. */
    private static String awaitLine(BufferedReader output, String marker) throws IOException {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith(marker)) {
                return line;
            }
            System.err.println(line);
        }
        throw new IllegalStateException("a node process ended before printing '" + marker + "'");
    }

    /** A node process: starts, fills its shard, and (the coordinator) runs the query when told; ends when its input does. */
    private static void runNode(Options options, int index, String membersText) throws Exception {
        List<Member> members = Arrays.stream(membersText.split(",")).map(Member::parse).toList();
        Path dir = Files.createTempDirectory("repartition-join-bench-" + members.get(index).id());
        BufferedReader launcher = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Database database = Database.inMemory("bench-" + members.get(index).id());
                ClusterNode node = ClusterNode.start(config(options, members, members.get(index), dir), database);
                Session session = database.newSession()) {
            if (index == 0) {
                createTables(session);
            }
            long filling = System.nanoTime();
            fillShard(database, options, index, members.size());
            System.err.printf(Locale.ROOT, "bench: %s filled its shard in %.1f s%n", members.get(index).id(), (System.nanoTime() - filling) / 1e9);
            System.out.println(FILLED);
            if (index == 0 && "run".equals(launcher.readLine())) {
                String line = measure(session, options, members.size());
                System.out.println(RESULT + line);
                System.out.println(RESULT + "end");
            }
            while (launcher.readLine() != null) {
                // the launcher closes the input when every node may stop
            }
        }
    }

    private static ClusterConfig config(Options options, List<Member> members, Member self, Path dir) {
        Properties p = new Properties();
        p.putAll(options.settings());
        for (int n = 0; n < members.size(); n++) {
            p.setProperty("group." + members.get(n).id(), "pair" + n / 2);
        }
        p.setProperty("node.id", self.id());
        p.setProperty("data.dir", self.id());
        p.setProperty("members", String.join(",", members.stream().map(Member::toString).toList()));
        return ClusterConfig.of(p, dir);
    }

    private static void createTables(Session session) {
        for (String table : List.of("a", "b")) {
            execute(session, "CREATE TABLE " + table + " (k BIGINT NOT NULL, p BIGINT NOT NULL) WITH (distribution = 'hash(p)')");
        }
    }

    /** Shard {@code n}'s share of both tables: an equal slice of each side's rows. */
    private static void fillShard(Database database, Options options, int n, int nodes) throws InterruptedException {
        long total = options.totalRows(nodes);
        long from = total * n / nodes;
        long to = total * (n + 1) / nodes;
        fill(database, "a", from, to, i -> options.keys().leftKey(i, total), i -> options.keys().leftPayload(i, total));
        fill(database, "b", from, to, j -> options.keys().rightKey(j, total), j -> options.keys().rightPayload(j, total));
    }

    /** Best of {@code options.runs()} runs of the query through {@code session}, its answer checked, as a table row (and the exchanges' lines). */
    private static String measure(Session session, Options options, int nodes) {
        long rows = options.totalRows(nodes);
        execute(session, "SET executor = '" + options.executor() + "'");
        long[] expected = options.keys().expectedAnswer(rows);
        long best = Long.MAX_VALUE;
        for (int run = 0; run < options.runs(); run++) {
            long start = System.nanoTime();
            List<Object> answer = rows(session, QUERY).get(0);
            best = Math.min(best, System.nanoTime() - start);
            long sum = answer.get(1) == null ? 0 : ((Number) answer.get(1)).longValue();
            if (((Number) answer.get(0)).longValue() != expected[0] || sum != expected[1]) {
                throw new IllegalStateException("wrong answer " + answer + ", expected " + Arrays.toString(expected));
            }
        }
        long bytes = 0;
        long wire = 0;
        List<String> exchanges = new ArrayList<>();
        for (List<Object> line : rows(session, "EXPLAIN ANALYZE " + QUERY)) {
            String text = (String) line.get(0);
            if (text.contains("-> Exchange") || options.explain() && text.contains("Join")) {
                exchanges.add(text.strip());
            }
            Matcher m = BYTES.matcher(text);
            if (m.find()) {
                bytes += Long.parseLong(m.group(1));
                wire += m.group(2) == null ? 0 : Long.parseLong(m.group(2));
            }
        }
        double seconds = best / 1e9;
        StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %d | %d | %.3f | %.3g | %.3g | %d | %s | %s |", nodes, rows,
                seconds, 2 * rows / seconds, 2 * rows / seconds / nodes, bytes, wire == 0 && bytes > 0 ? "-" : Long.toString(wire),
                wire == 0 && bytes > 0 ? "-" : String.format(Locale.ROOT, "%.2f", wire / (2.0 * rows))));
        if (options.explain()) {
            exchanges.forEach(line -> row.append("\n    ").append(line));
        }
        return row.toString();
    }

    /** How the two tables' keys and payloads are made from the rows' numbers, and the answer they give. */
    private enum Keys {
        /** Key i on the left, key i + N/2 (mod N) on the right, payloads key and twice the key: every row matches. */
        CONSECUTIVE {
            @Override
            long leftKey(long i, long rows) {
                return i;
            }

            @Override
            long leftPayload(long i, long rows) {
                return i;
            }

            @Override
            long rightKey(long j, long rows) {
                return (j + rows / 2) % rows;
            }

            @Override
            long rightPayload(long j, long rows) {
                return 2 * rightKey(j, rows);
            }

            @Override
            long[] expectedAnswer(long rows) {
                return new long[] {rows, rows * (rows - 1) / 2};
            }
        },
        /**
         * Seed 000 section 6.2: left key i is {@link #scramble} of i, unique and random-looking; right
         * row j matches the left row {@link #matchOf} names with probability 0.3, else carries the
         * scramble of N + j, which no left row has. Payloads are the rows' numbers.
         */
        RANDOM {
            @Override
            long leftKey(long i, long rows) {
                return scramble(i);
            }

            @Override
            long leftPayload(long i, long rows) {
                return i;
            }

            @Override
            long rightKey(long j, long rows) {
                long match = matchOf(j, rows);
                return scramble(match >= 0 ? match : rows + j);
            }

            @Override
            long rightPayload(long j, long rows) {
                return j;
            }

            @Override
            long[] expectedAnswer(long rows) {
                long count = 0;
                long sum = 0;
                for (long j = 0; j < rows; j++) {
                    long match = matchOf(j, rows);
                    if (match >= 0) {
                        count++;
                        sum += j - match;
                    }
                }
                return new long[] {count, sum};
            }

            /** The left row right row j matches (30 % of them), or -1. */
            private static long matchOf(long j, long rows) {
                long h = scramble(j ^ 0x5DEECE66DL);
                return Long.remainderUnsigned(h, 10) < 3 ? Long.remainderUnsigned(h >>> 20, rows) : -1;
            }
        };

        abstract long leftKey(long i, long rows);

        abstract long leftPayload(long i, long rows);

        abstract long rightKey(long j, long rows);

        abstract long rightPayload(long j, long rows);

        /** COUNT(*) and SUM(b.p - a.p) of the join of N rows a side. */
        abstract long[] expectedAnswer(long rows);

        /** A bijection of the longs (splitmix64's finaliser): distinct inputs give distinct, well-spread keys. */
        static long scramble(long x) {
            long z = x + 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
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

    /**
     * Appends rows {@code from} to {@code to} (key and payload of each row's number) to the node's
     * shard of {@code name}; the batches are made on all cores (seed 000's 500 M rows a side per GPU
     * took minutes on one).
     */
    private static void fill(Database database, String name, long from, long to, LongUnaryOperator key, LongUnaryOperator payload)
            throws InterruptedException {
        Table table = table(database, name);
        Schema schema = table.schema();
        int count = (int) ((to - from + BATCH_ROWS - 1) / BATCH_ROWS);
        List<Batch> batches = IntStream.range(0, count).parallel().mapToObj(b -> {
            long start = from + (long) b * BATCH_ROWS;
            int rows = (int) Math.min(BATCH_ROWS, to - start);
            BigIntVector k = new BigIntVector("k", database.allocator());
            BigIntVector p = new BigIntVector("p", database.allocator());
            k.allocateNew(rows);
            p.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                k.set(i, key.applyAsLong(start + i));
                p.set(i, payload.applyAsLong(start + i));
            }
            k.setValueCount(rows);
            p.setValueCount(rows);
            return new Batch(schema, List.<FieldVector>of(k, p), Arrays.asList(null, null), rows);
        }).toList();
        table.append(Batches.of(schema, batches));
    }
}
