package io.warpdb.sqltest;

import io.warpdb.tools.WarpCli;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of separate {@code warpdb node} processes on loopback, run from this test's class
 * path, each with its configuration and data directory {@code n<i>} under one folder (also its
 * working directory): what the
 * cluster tests and the sqltest {@code cluster} target query through JDBC.
 */
public final class LoopbackCluster implements AutoCloseable {
    private final Path dir;
    private final List<String> jvmOptions;
    private String settings;
    /** The {@code members} line every node's configuration carries: each node's ports, fixed for the cluster's life. */
    private String members;
    private final List<Path> configs = new ArrayList<>();
    private final List<int[]> ports = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<Process> paused = new ArrayList<>();

    private LoopbackCluster(Path dir, List<String> jvmOptions, String settings) {
        this.dir = dir.toAbsolutePath(); // each node runs in its own folder
        this.jvmOptions = jvmOptions;
        this.settings = settings;
    }

    /**
     * JVM options of a node that serves small statements in a test: {@code heap} of heap, the client compiler only
     * and the serial collector. On 2 cores the server compiler's and G1's threads of several node processes took CPU
     * from the tests while the nodes' statements are too short to gain from them.
     */
    public static List<String> smallNode(String heap) {
        return List.of("-Xmx" + heap, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    }

    /** Starts {@code nodes} nodes whose data lies under {@code dir}; returns once every one serves. */
    public static LoopbackCluster start(Path dir, int nodes, List<String> jvmOptions) {
        return start(dir, nodes, jvmOptions, "");
    }

    /** With {@code settings} (lines of cluster.properties, e.g. {@code node.timeout.seconds = 3}) in every node's configuration. */
    public static LoopbackCluster start(Path dir, int nodes, List<String> jvmOptions, String settings) {
        LoopbackCluster cluster = new LoopbackCluster(dir, jvmOptions, settings);
        try {
            cluster.choosePorts(nodes);
            cluster.writeConfigs();
            cluster.launchAll();
            return cluster;
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    public int size() {
        return configs.size();
    }

    /** The JDBC URL of node {@code n}'s SQL port (0-based). */
    public String url(int n) {
        return "jdbc:warpdb:remote:http://127.0.0.1:" + ports.get(n)[2];
    }

    /**
     * Node {@code n}'s working directory (its data folder {@code n<i>}), against which it resolves
     * relative paths, as in a COPY: a file name there may name another file on each node.
     */
    public Path workingDirectory(int n) {
        return dir.resolve("n" + (n + 1));
    }

    /** Node {@code n}'s shard database directory. */
    public Path shardDirectory(int n) {
        return dir.resolve("n" + (n + 1)).resolve("db");
    }

    /** Stops node {@code n} with SIGTERM, as {@code kill} does, and waits for it to exit. */
    public void stop(int n) {
        Process p = processes.get(n);
        p.toHandle().destroy();
        awaitExit(p);
    }

    /** Stops node {@code n} with SIGSTOP: it keeps its sockets but answers nothing, as a hung machine. */
    public void pause(int n) {
        signal(n, "-STOP");
        paused.add(processes.get(n));
    }

    /** Kills node {@code n} with SIGKILL (no shutdown: a crash) and waits for it to be gone. */
    public void kill(int n) {
        Process p = processes.get(n);
        p.toHandle().destroyForcibly();
        awaitExit(p);
    }

    private void signal(int n, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(processes.get(n).pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill " + signal + " of node n" + (n + 1) + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts node {@code n} again on its configuration and data; returns once it serves. */
    public void restart(int n) {
        try {
            processes.set(n, launch(n));
            awaitServing(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Stops every node and starts them all again on their data and ports with {@code newSettings} in place of the
     * settings they had (another transport, say); returns once every one serves.
     */
    public void restartAll(String newSettings) {
        close();
        processes.clear();
        paused.clear();
        settings = newSettings;
        try {
            writeConfigs();
            launchAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void launchAll() throws IOException {
        for (int n = 0; n < configs.size(); n++) {
            processes.add(launch(n));
        }
        for (int n = 0; n < configs.size(); n++) {
            awaitServing(n);
        }
    }

    private void choosePorts(int nodes) throws IOException {
        List<String> members = new ArrayList<>();
        // All sockets stay open until every port is chosen, so that the system never hands out one twice.
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int n = 1; n <= nodes; n++) {
                int[] p = {freePort(held), freePort(held), freePort(held)};
                ports.add(p);
                members.add("n" + n + "=127.0.0.1:" + p[0] + ":" + p[1] + ":" + p[2]);
            }
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
        this.members = String.join(", ", members);
        for (int n = 1; n <= nodes; n++) {
            configs.add(dir.resolve("n" + n + ".properties"));
        }
    }

    private void writeConfigs() throws IOException {
        Files.createDirectories(dir);
        for (int n = 1; n <= configs.size(); n++) {
            Files.writeString(configs.get(n - 1), "node.id = n" + n + "\ndata.dir = n" + n + "\nmembers = " + members + "\n" + settings);
        }
    }

    /**
     * The ports this JVM's clusters were given: never handed out twice, so that clusters started side by side, or a node
     * restarted while another cluster starts, cannot take each other's.
     */
    private static final java.util.Set<Integer> GIVEN = new java.util.HashSet<>();
    /**
     * Where ports are chosen: below Linux's default ephemeral range (32768 on), from which the nodes' own outgoing
     * connections take their local ports, and which could hand a killed node's port to one of them before it restarts.
     */
    private static final int FIRST_PORT = 20000;
    private static final int LAST_PORT = 32767;

    /** A port free now and never given before, kept by a socket added to {@code held}. */
    private static synchronized int freePort(List<ServerSocket> held) throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = random.nextInt(FIRST_PORT, LAST_PORT + 1);
            if (GIVEN.contains(port)) {
                continue;
            }
            try {
                ServerSocket socket = new ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress());
                held.add(socket);
                GIVEN.add(port);
                return port;
            } catch (IOException taken) {
                // in use by something else: try another
            }
        }
        throw new IOException("no free port between " + FIRST_PORT + " and " + LAST_PORT);
    }

    private Process launch(int n) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), WarpCli.class.getName(), "node", "--config",
                configs.get(n).toString()));
        return new ProcessBuilder(command).directory(Files.createDirectories(workingDirectory(n)).toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Reads the node's first line, which it prints once it serves; the rest of its output is drained in the background. */
    private void awaitServing(int n) throws IOException {
        Process p = processes.get(n);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("WarpDB node ")) {
            throw new IllegalStateException("node n" + (n + 1) + " did not start: " + line);
        }
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // Nothing to keep: a full pipe would block the node.
                }
            } catch (IOException ignored) {
                // The node went away.
            }
        }, "node-n" + (n + 1) + "-out");
        drain.setDaemon(true);
        drain.start();
    }

    private static void awaitExit(Process p) {
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("a node did not exit within a minute of SIGTERM");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops every node (SIGTERM; SIGKILL for a paused one, which would not act on SIGTERM) and waits for them. */
    @Override
    public void close() {
        paused.forEach(p -> p.toHandle().destroyForcibly());
        processes.forEach(p -> p.toHandle().destroy());
        processes.forEach(LoopbackCluster::awaitExit);
    }
}
