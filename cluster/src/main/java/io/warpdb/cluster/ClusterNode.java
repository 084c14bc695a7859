package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.sql.Database;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One running node of a cluster: its Raft server and log client, its Arrow Flight service for
 * the other nodes (and with {@code transport = ucx} its UCX exchange, which carries the rows), and the coordinator that takes over the client sessions of its shard
 * database (which a JDBC server serves on the member's SQL port; the caller starts that).
 */
public final class ClusterNode implements AutoCloseable {
    /** How long a starting node waits for the other nodes to take its UCX worker address (at most the node timeout). */
    private static final Duration ANNOUNCE_PATIENCE = Duration.ofSeconds(5);
    private final ClusterConfig config;
    private final Database database;
    private final ShardStore shard;
    private final ClusterCatalog catalog;
    private final BufferAllocator allocator;
    private final FlightServer flight;
    private final Exchange exchange;
    private final RaftLog log;

    private ClusterNode(ClusterConfig config, Database database) throws IOException {
        this.config = config;
        this.database = database;
        this.shard = new ShardStore(config.nodeId(), database, HashPartitioner.choose(config.gpuPartitioning()));
        LoadScratch.clear(config.dataDir());
        this.catalog = new ClusterCatalog(config.members());
        this.allocator = database.allocator().newChildAllocator("cluster-" + config.nodeId(), 0, Long.MAX_VALUE);
        Member self = config.self();
        FlightExchange flightExchange = new FlightExchange(allocator, config.nodeTimeout(), self);
        UcxExchange ucx = null;
        if (config.transport() == ClusterConfig.Transport.UCX) {
            try {
                ucx = UcxExchange.start(flightExchange, self, shard, config.members(), allocator, config.nodeTimeout(),
                        config.wireCompression(), config.gpuPartitioning() && config.deviceExchange() ? DeviceExchange.find() : Optional.empty());
            } catch (RuntimeException e) {
                flightExchange.close();
                allocator.close();
                throw e;
            }
        }
        this.exchange = ucx == null ? flightExchange : ucx;
        this.flight = FlightServer.builder(allocator, Location.forGrpcInsecure(self.host(), self.flightPort()),
                new ShardService(shard, allocator, flightExchange, exchange, config.members(), ucx == null ? null : ucx.address())).build();
        if (ucx != null) {
            // before this node can be asked anything: no member may keep reaching its previous process's address
            ucx.announce(config.members(), ANNOUNCE_PATIENCE.compareTo(config.nodeTimeout()) < 0 ? ANNOUNCE_PATIENCE : config.nodeTimeout());
        }
        flight.start();
        this.log = new RaftLog(config, new ClusterStateMachine(catalog, shard));
        try {
            // Loads a previous run of this node coordinated and never decided: no one else will.
            log.append(ClusterCommand.abandon(config.nodeId()));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        database.setInterceptor(new Coordinator(config, catalog, log, shard, exchange));
    }

    /**
     * Starts the node of {@code config} on {@code database}, its shard (a durable database in
     * {@code <data.dir>/db} as {@code warpdb node} opens it). Fails with SQLSTATE 08006 when a
     * port is taken.
     */
    public static ClusterNode start(ClusterConfig config, Database database) {
        try {
            return new ClusterNode(config, database);
        } catch (IOException e) {
            throw new WarpException(SqlState.CONNECTION_FAILURE, "node " + config.nodeId() + " could not start: " + e.getMessage(), e);
        }
    }

    public ClusterConfig config() {
        return config;
    }

    /** The replicated catalog as this node has applied it. */
    public ClusterCatalog catalog() {
        return catalog;
    }

    /** The data transport's name. */
    public String transport() {
        return exchange.name();
    }

    /** Where this node hashes the rows of a repartition: {@code cpu}, {@code gpu0}, ... */
    public String partitioning() {
        return shard.partitioner().name();
    }

    @Override
    public void close() {
        database.setInterceptor(null);
        try {
            log.close();
            flight.close();
        } catch (IOException e) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "stopping node " + config.nodeId() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            exchange.close();
            allocator.close();
        }
    }
}
