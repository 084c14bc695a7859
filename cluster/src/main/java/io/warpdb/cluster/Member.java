package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;

/**
 * One node of a cluster as the configuration names it: {@code id=host:raftPort:flightPort:sqlPort},
 * the ports of its Raft server, its Arrow Flight data service and its JDBC (Avatica) server.
 */
public record Member(String id, String host, int raftPort, int flightPort, int sqlPort) {
    /** Reads {@code id=host:raftPort:flightPort:sqlPort}; SQLSTATE 22023 when malformed. */
    public static Member parse(String text) {
        String[] idAndAddress = text.trim().split("=", 2);
        String[] parts = idAndAddress.length == 2 ? idAndAddress[1].trim().split(":") : new String[0];
        if (parts.length != 4 || idAndAddress[0].isBlank()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "a member is id=host:raftPort:flightPort:sqlPort, not '"
                    + text.trim() + "'");
        }
        String id = idAndAddress[0].trim();
        if (!id.matches("[A-Za-z0-9_.-]+")) {
            // it names the node's loads and their scratch directories
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "a member's id is made of letters, digits, '_', '.' and '-', not '"
                    + id + "'");
        }
        try {
            return new Member(id, parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]),
                    Integer.parseInt(parts[3]));
        } catch (NumberFormatException e) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "a member's ports must be numbers: '" + text.trim() + "'");
        }
    }

    public String raftAddress() {
        return host + ":" + raftPort;
    }

    @Override
    public String toString() {
        return id + "=" + host + ":" + raftPort + ":" + flightPort + ":" + sqlPort;
    }
}
