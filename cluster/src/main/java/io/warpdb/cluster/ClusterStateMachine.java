package io.warpdb.cluster;

import java.nio.charset.StandardCharsets;
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
            applyToShard(command);
            shard.setAppliedIndex(entry.getIndex());
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        notifyAll();
        return CompletableFuture.completedFuture(Message.valueOf(refused == null ? "" : refused));
    }

    private void applyToShard(ClusterCommand command) {
        try {
            switch (command.op()) {
                case ClusterCommand.CREATE -> {
                    if (!shard.hasTable(command.table())) {
                        shard.run(command.sql());
                    }
                }
                case ClusterCommand.DROP -> {
                    if (shard.hasTable(command.table())) {
                        shard.run(command.sql());
                    }
                }
                default -> shard.publish(command.load());
            }
        } catch (RuntimeException e) {
            // The entry is committed; a shard that cannot follow it must say so loudly, but the log goes on.
            LOG.error("shard could not apply {}", command, e);
        }
    }

    /** The read that {@link RaftLog#catchUp} makes: it carries nothing; its point is that it waits for the log. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        return CompletableFuture.completedFuture(Message.EMPTY);
    }

    /** Waits until this node has applied the log up to {@code index}. */
    synchronized void awaitApplied(long index) throws InterruptedException {
        while (getLastAppliedTermIndex() == null || getLastAppliedTermIndex().getIndex() < index) {
            wait(100);
        }
    }

    static String reason(Message reply) {
        String text = reply.getContent().toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? null : text;
    }
}
