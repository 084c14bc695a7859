package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A node's configuration, from a {@code cluster.properties} file: {@code node.id}, {@code data.dir}
 * (the node's own directory: its Raft log and its shard database), {@code members} (every node,
 * comma-separated, see {@link Member}; the same list on every node, in the same order, which is
 * the order of the shards), {@code cluster.id} (names the Raft group; default {@code warpdb}),
 * {@code node.timeout.seconds} (how long a query waits for another node's next rows before it fails
 * naming that node; default 60), {@code transport} (how rows travel between nodes: {@code flight},
 * the default, or {@code ucx}), {@code wire.compression} ({@code auto}, the default: each column
 * of a batch sent to a node of another host in the storage encoding a sample of it finds smallest,
 * plain Arrow within a host; {@code always}: to every node; {@code none}: plain Arrow; only the UCX
 * transport compresses, {@link WireCompression}), {@code gpu.partitioning} ({@code auto},
 * the default: a repartition hashes the rows a node sends on its GPU where one is present; {@code
 * off}: on the CPU), {@code exchange.device} ({@code auto}, the default: over UCX, rows hashed on
 * a GPU go to the nodes of the same host that can map its memory device to device, over CUDA IPC;
 * {@code off}: through the host), {@code exchange.shuffle} ({@code one-level}, the default: a shard sends each
 * other shard its rows; {@code two-level}: through one shard of its group, seed 000 section 5,
 * {@link ShuffleRoute}) and {@code group.<node id>} (the node's group for the two-level shuffle;
 * default the host of its address) and {@code gpu.devices} (the CUDA device ordinals the node's GPU
 * executor uses, e.g. {@code 1} for one node per GPU on a host of several; default every visible
 * one) and {@code copy.parallel} ({@code auto}, the default: a COPY from a text file that every
 * node sees is parsed by every node, each a byte range of it, {@link ParallelCopy}; {@code off}: the
 * coordinating node parses it). The settings that shape queries (shuffle and groups) are the coordinating node's: set them
 * alike on every node.
 */
public record ClusterConfig(String nodeId, Path dataDir, List<Member> members, String clusterId, Duration nodeTimeout,
        Transport transport, WireCompression wireCompression, boolean gpuPartitioning, boolean deviceExchange, boolean twoLevelShuffle,
        List<String> groups, List<Integer> gpuDevices, boolean parallelCopy) {
    private static final String NODE_TIMEOUT = "node.timeout.seconds";
    private static final String TRANSPORT = "transport";
    private static final String WIRE_COMPRESSION = "wire.compression";
    private static final String GPU_PARTITIONING = "gpu.partitioning";
    private static final String DEVICE_EXCHANGE = "exchange.device";
    private static final String SHUFFLE = "exchange.shuffle";
    private static final String GROUP = "group.";
    private static final String GPU_DEVICES = "gpu.devices";
    private static final String PARALLEL_COPY = "copy.parallel";

    /** How rows travel between nodes. */
    public enum Transport {
        FLIGHT, UCX
    }

    public ClusterConfig {
        members = List.copyOf(members);
        groups = List.copyOf(groups);
        gpuDevices = List.copyOf(gpuDevices);
        if (members.stream().map(Member::id).distinct().count() != members.size()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "members name a node twice: " + members);
        }
        if (members.stream().noneMatch(m -> m.id().equals(nodeId))) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "node.id " + nodeId + " is not one of the members " + members);
        }
        checkPorts(members);
    }

    /** Reads a properties file; SQLSTATE 22023 for a missing key or a malformed member, 58P01 for an unreadable file. */
    public static ClusterConfig load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new WarpException(SqlState.UNDEFINED_FILE, "cannot read the cluster configuration " + file + ": " + e.getMessage());
        }
        return of(p, file.toAbsolutePath().getParent());
    }

    /** The configuration in {@code p}; a relative {@code data.dir} is resolved against {@code base}. */
    public static ClusterConfig of(Properties p, Path base) {
        List<Member> members = new ArrayList<>();
        for (String m : required(p, "members").split(",")) {
            if (!m.isBlank()) {
                members.add(Member.parse(m));
            }
        }
        Path dataDir = base.resolve(required(p, "data.dir"));
        String timeout = p.getProperty(NODE_TIMEOUT, "60").trim();
        long seconds;
        try {
            seconds = Long.parseLong(timeout);
        } catch (NumberFormatException e) {
            seconds = 0;
        }
        if (seconds <= 0) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                    NODE_TIMEOUT + " must be a positive number of seconds, not " + timeout);
        }
        return new ClusterConfig(required(p, "node.id"), dataDir, members, p.getProperty("cluster.id", "warpdb").trim(),
                Duration.ofSeconds(seconds), Transport.valueOf(choice(p, TRANSPORT, "flight", "ucx").toUpperCase(Locale.ROOT)),
                WireCompression.valueOf(choice(p, WIRE_COMPRESSION, "auto", "always", "none").toUpperCase(Locale.ROOT)), choice(p, GPU_PARTITIONING, "auto", "off").equals("auto"),
                choice(p, DEVICE_EXCHANGE, "auto", "off").equals("auto"),
                choice(p, SHUFFLE, "one-level", "two-level").equals("two-level"),
                members.stream().map(m -> p.getProperty(GROUP + m.id(), m.host()).trim()).toList(), gpuDevices(p),
                choice(p, PARALLEL_COPY, "auto", "off").equals("auto"));
    }

    /** The device ordinals {@code gpu.devices} lists (empty when unset); SQLSTATE 22023 for a malformed list. */
    private static List<Integer> gpuDevices(Properties p) {
        String text = p.getProperty(GPU_DEVICES, "").trim();
        List<Integer> ordinals = new ArrayList<>();
        if (text.isEmpty()) {
            return ordinals;
        }
        for (String part : text.split(",", -1)) {
            int ordinal;
            try {
                ordinal = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                ordinal = -1;
            }
            if (ordinal < 0 || ordinals.contains(ordinal)) {
                throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                        GPU_DEVICES + " must list distinct device numbers (0, 1, ...), not " + text);
            }
            ordinals.add(ordinal);
        }
        return ordinals;
    }

    /** The value of {@code key}, one of {@code allowed} (the first is the default); SQLSTATE 22023 for another. */
    private static String choice(Properties p, String key, String... allowed) {
        String value = p.getProperty(key, allowed[0]).trim().toLowerCase(Locale.ROOT);
        if (!List.of(allowed).contains(value)) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, key + " must be " + String.join(" or ", allowed) + ", not " + value);
        }
        return value;
    }

    private static String required(Properties p, String key) {
        String v = p.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "the cluster configuration lacks " + key);
        }
        return v.trim();
    }

    public Member self() {
        return members.stream().filter(m -> m.id().equals(nodeId)).findFirst().orElseThrow();
    }

    /** The node's shard number: its position in {@link #members}. */
    public int shardOf(String memberId) {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).id().equals(memberId)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no member " + memberId);
    }

    /** Each shard's group number (groups numbered in order of their first shard), in shard order. */
    public List<Integer> groupNumbers() {
        List<String> names = groups.stream().distinct().toList();
        return groups.stream().map(names::indexOf).toList();
    }

    /** Checks that no two members share an address and port. */
    private static void checkPorts(List<Member> members) {
        var seen = new HashSet<String>();
        for (Member m : members) {
            for (int port : new int[] {m.raftPort(), m.flightPort(), m.sqlPort()}) {
                if (!seen.add(m.host() + ":" + port)) {
                    throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "two members use " + m.host() + ":" + port);
                }
            }
        }
    }
}
