package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;

/**
 * The cluster's replicated log on Apache Ratis: this node's Raft server (in the group of all
 * members, its log under {@code <data.dir>/raft}) and a client that appends entries through
 * whichever member leads. An append returns once the entry is committed and applied here too,
 * so a statement that follows on this node sees its effect.
 */
final class RaftLog implements AutoCloseable {
    private final RaftServer server;
    private final RaftClient client;
    private final ClusterStateMachine stateMachine;
    private final RaftPeerId self;
    private final Duration timeout;

    RaftLog(ClusterConfig config, ClusterStateMachine stateMachine) throws IOException {
        this.stateMachine = stateMachine;
        this.timeout = config.nodeTimeout();
        Path dir = config.dataDir().resolve("raft");
        Files.createDirectories(dir);
        RaftGroupId groupId = RaftGroupId.valueOf(UUID.nameUUIDFromBytes(config.clusterId().getBytes(StandardCharsets.UTF_8)));
        List<RaftPeer> peers = config.members().stream()
                .map(m -> RaftPeer.newBuilder().setId(m.id()).setAddress(m.raftAddress()).build()).toList();
        RaftGroup group = RaftGroup.valueOf(groupId, peers);
        RaftProperties properties = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(properties, List.of(dir.toFile()));
        GrpcConfigKeys.Server.setHost(properties, config.self().host());
        GrpcConfigKeys.Server.setPort(properties, config.self().raftPort());
        // Loopback and LAN clusters: elect within seconds, with room for a busy machine's pauses.
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, TimeDuration.valueOf(1, TimeUnit.SECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, TimeDuration.valueOf(2, TimeUnit.SECONDS));
        // A read (catchUp's, of the leader) waits until the leader has applied what it had committed (ReadIndex).
        RaftServerConfigKeys.Read.setOption(properties, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        // The leader answers a ReadIndex at once while a majority acknowledged its heartbeats within the lease (0.9 of the
        // election timeout), instead of a round of heartbeats per read, which waits up to a heartbeat interval when one is lost.
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(properties, true);
        this.self = RaftPeerId.valueOf(config.nodeId());
        boolean formatted = Files.isDirectory(dir.resolve(groupId.getUuid().toString()));
        this.server = RaftServer.newBuilder().setServerId(self).setGroup(group)
                .setProperties(properties).setStateMachine(stateMachine)
                .setOption(formatted ? RaftStorage.StartupOption.RECOVER : RaftStorage.StartupOption.FORMAT).build();
        server.start();
        this.client = RaftClient.newBuilder().setProperties(properties).setRaftGroup(group).build();
        catchUp();
    }

    /**
     * Returns once this node has applied every command committed before the call, wherever it was
     * appended: a statement coordinated here then sees every earlier commit of the cluster, and a
     * restarted node serves only after catching up. The leader answers (a linearizable read, which
     * its lease spares a round of heartbeats) the index of the last command it applied, and this node
     * waits until it has applied that one. Not a read through this node's own server: a follower
     * would wait there for the entries after the last command too (the leader's metadata entries),
     * whose commit it learns only at the leader's next heartbeat, up to half an election timeout later.
     */
    void catchUp() {
        RaftClientReply reply;
        try {
            reply = client.io().sendReadOnly(Message.EMPTY);
        } catch (IOException e) {
            throw new WarpException(SqlState.CONNECTION_FAILURE, "the cluster log is not reachable: " + e.getMessage(), e);
        }
        if (!reply.isSuccess()) {
            throw new WarpException(SqlState.CONNECTION_FAILURE, "node " + self + " could not catch up with the cluster log: "
                    + reply.getException());
        }
        stateMachine.awaitApplied(ClusterStateMachine.appliedCommand(reply.getMessage()), timeout);
    }

    /** Appends {@code command}; throws its refusal (with the SQLSTATE the state machine gave) when it did not apply. */
    void append(ClusterCommand command) {
        RaftClientReply reply;
        try {
            reply = client.io().send(Message.valueOf(ByteString.copyFrom(command.toBytes())));
        } catch (IOException e) {
            throw new WarpException(SqlState.CONNECTION_FAILURE, "the cluster log is not reachable: " + e.getMessage(), e);
        }
        if (!reply.isSuccess()) {
            throw new WarpException(SqlState.CONNECTION_FAILURE, "the cluster log refused an entry: " + reply.getException());
        }
        stateMachine.awaitApplied(reply.getLogIndex(), timeout);
        String refused = ClusterStateMachine.reason(reply.getMessage());
        if (refused != null) {
            SqlState state = java.util.Arrays.stream(SqlState.values()).filter(s -> refused.startsWith(s.code())).findFirst()
                    .orElse(SqlState.INTERNAL_ERROR);
            throw new WarpException(state, refused.substring(6));
        }
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
        } finally {
            server.close();
        }
    }
}
