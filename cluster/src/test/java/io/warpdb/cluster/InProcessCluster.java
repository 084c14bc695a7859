package io.warpdb.cluster;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Nodes of a cluster in this process, each on its own durable shard under one folder, on free
 * loopback ports, started at once (for tests and benchmarks); closing stops them all.
 */
final class InProcessCluster implements AutoCloseable {
    /** Every port {@link #members} handed out in this process. */
    private static final Set<Integer> GIVEN = new HashSet<>();
    private final List<Database> databases = new ArrayList<>();
    private final List<ClusterNode> nodes = new ArrayList<>();

    /** Starts {@code count} nodes in {@code dir}, each configured by {@code settings} besides its id, folder and the members. */
    static InProcessCluster start(Path dir, int count, Properties settings) {
        List<Member> members = members(count);
        InProcessCluster cluster = new InProcessCluster();
        List<CompletableFuture<ClusterNode>> starting = new ArrayList<>();
        try {
            for (Member m : members) {
                Properties p = new Properties();
                p.putAll(settings);
                p.setProperty("node.id", m.id());
                p.setProperty("data.dir", m.id());
                p.setProperty("members", String.join(",", members.stream().map(Member::toString).toList()));
                ClusterConfig config = ClusterConfig.of(p, dir);
                Database database = Database.open(config.dataDir().resolve("db"), StorageOptions.defaults());
                cluster.databases.add(database);
                starting.add(CompletableFuture.supplyAsync(() -> ClusterNode.start(config, database)));
            }
            for (CompletableFuture<ClusterNode> s : starting) {
                cluster.nodes.add(s.join());
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * {@code count} members n1, n2, ... on free loopback ports, all different: each port's socket is
     * held until every port is chosen (a port closed at once may be handed out again by the next ask).
     */
    static List<Member> members(int count) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Member> members = new ArrayList<>();
            for (int n = 1; n <= count; n++) {
                members.add(Member.parse("n" + n + "=127.0.0.1:" + freePort(held) + ":" + freePort(held) + ":" + freePort(held)));
            }
            return members;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // the port was chosen; a socket that does not close keeps nothing the nodes need
                }
            }
        }
    }

    /**
     * A free port never handed out before in this process (the clusters of tests running side by
     * side must not meet on one), kept by a socket added to {@code held}.
     */
    private static synchronized int freePort(List<ServerSocket> held) throws IOException {
        while (true) {
            ServerSocket socket = new ServerSocket(0);
            held.add(socket);
            if (GIVEN.add(socket.getLocalPort())) {
                return socket.getLocalPort();
            }
        }
    }

    /** Node {@code n}'s shard database, through which a session coordinates statements. */
    Database database(int n) {
        return databases.get(n);
    }

    int size() {
        return nodes.size();
    }

    @Override
    public void close() {
        nodes.forEach(ClusterNode::close);
        databases.forEach(Database::close);
    }
}
