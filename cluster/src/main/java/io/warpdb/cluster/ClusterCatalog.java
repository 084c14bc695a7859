package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.sql.ddl.Distribution;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The replicated part of the catalog, the state of the Raft state machine: every table's
 * distribution and version (the number of loads committed to it), and the members. The
 * schemas live in each node's shard database, created there by the same log entries. Every
 * node holds the same catalog at the same log index.
 */
public final class ClusterCatalog {
    /** A table as the cluster knows it. */
    public record TableEntry(String name, Distribution distribution, long version) {
    }

    private final List<Member> members;
    private final Map<String, TableEntry> tables = new ConcurrentHashMap<>();

    ClusterCatalog(List<Member> members) {
        this.members = List.copyOf(members);
    }

    public List<Member> members() {
        return members;
    }

    public Optional<TableEntry> table(String name) {
        return Optional.ofNullable(tables.get(key(name)));
    }

    /**
     * Applies a log entry; returns null when it applies, else why not, starting with the
     * SQLSTATE (the same on every node, so every node skips the same entries).
     */
    String apply(ClusterCommand command) {
        if (command.op().equals(ClusterCommand.ABORT) || command.op().equals(ClusterCommand.ABANDON)) {
            return null; // staged loads are the shards' alone
        }
        String key = key(command.table());
        TableEntry entry = tables.get(key);
        switch (command.op()) {
            case ClusterCommand.CREATE -> {
                if (entry != null) {
                    return SqlState.DUPLICATE_TABLE.code() + " table " + command.table() + " already exists";
                }
                tables.put(key, new TableEntry(command.table(), Distribution.parse(command.distribution()), 0));
            }
            case ClusterCommand.DROP -> {
                if (entry == null) {
                    return SqlState.UNDEFINED_TABLE.code() + " table " + command.table() + " does not exist";
                }
                tables.remove(key);
            }
            case ClusterCommand.COMMIT -> {
                if (entry == null) {
                    return SqlState.UNDEFINED_TABLE.code() + " table " + command.table() + " does not exist";
                }
                tables.put(key, new TableEntry(entry.name(), entry.distribution(), entry.version() + 1));
            }
            default -> throw new IllegalArgumentException("unknown cluster command " + command.op());
        }
        return null;
    }

    private static String key(String table) {
        return table.toUpperCase(Locale.ROOT);
    }
}
