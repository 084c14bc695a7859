package io.warpdb.cluster;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Raft state machine of a node: applies each committed log entry to the replicated
 * {@link ClusterCatalog} and to the node's {@link ShardStore} (creating and dropping tables,
 * publishing staged loads). The reply is empty when the entry applied, else the reason it did
 * not; a node replaying its log after a restart rebuilds the catalog from every entry but
 * touches its shard only for entries past the shard's applied index.
 */
final class ClusterStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterStateMachine.class);

    private final ClusterCatalog catalog;
    private final ShardStore shard;

    ClusterStateMachine(ClusterCatalog catalog, ShardStore shard) {
        this.catalog = catalog;
        this.shard = shard;
    }

    @Override
    public synchronized CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        ClusterCommand command = ClusterCommand.of(entry.getStateMachineLogEntry().getLogData().toByteArray());
        String refused = catalog.apply(command);
        if (refused == null && entry.getIndex() > shard.appliedIndex()) {
            applyToShard(command, entry.getIndex());
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        shard.logApplied(entry.getIndex());
        return CompletableFuture.completedFuture(Message.valueOf(refused == null ? "" : refused));
    }

    /** Applies {@code command}, the entry at log index {@code index}, to the shard, and records the index there. */
    private void applyToShard(ClusterCommand command, long index) {
        try {
            switch (command.op()) {
                case ClusterCommand.CREATE -> {
                    if (!shard.hasTable(command.table())) {
                        shard.run(command.sql());
                    }
                    shard.setAppliedIndex(index);
                }
                case ClusterCommand.DROP -> {
                    if (shard.hasTable(command.table())) {
                        shard.run(command.sql());
                    }
                    shard.setAppliedIndex(index);
                }
                case ClusterCommand.COMMIT -> shard.publish(command.load(), command.rowsStagedOn(shard.nodeId()), index);
                case ClusterCommand.ABORT -> shard.discard(command.load(), index);
                case ClusterCommand.ABANDON -> shard.abandon(command.node(), index);
                default -> throw new IllegalArgumentException("unknown cluster command " + command.op());
            }
        } catch (RuntimeException e) {
            // The entry is committed; a shard that cannot follow it must say so loudly, but the log goes on.
            LOG.error("shard {} could not apply {}", shard.nodeId(), command, e);
        }
    }

    /** The read that {@link RaftLog#catchUp} makes of the leader: the index of the last command applied there. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        return CompletableFuture.completedFuture(Message.valueOf(Long.toString(shard.logApplied())));
    }

    /** The index of the last command applied, in the answer of {@link #query}. */
    static long appliedCommand(Message answer) {
        return Long.parseLong(answer.getContent().toString(StandardCharsets.UTF_8));
    }

    /** Waits until this node has applied the log up to {@code index}; fails with SQLSTATE 08006 past {@code timeout}. */
    void awaitApplied(long index, Duration timeout) {
        shard.awaitLog(index, timeout);
    }

    static String reason(Message reply) {
        String text = reply.getContent().toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? null : text;
    }
}
