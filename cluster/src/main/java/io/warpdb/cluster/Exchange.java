package io.warpdb.cluster;

import io.warpdb.core.batch.BatchStream;

/**
 * The data plane between nodes: what a coordinator asks of a shard and how rows travel. Arrow
 * Flight ({@link FlightExchange}) is the portable transport; a UCX one (seed 000's, through
 * jucx) is to implement the same calls, so the coordinator never names a transport.
 */
public interface Exchange extends AutoCloseable {
    /** The transport's name, as a node reports it at start. */
    String name();

    /**
     * Runs {@code sql}, a statement over the node's shard alone, on {@code node} and streams its
     * rows back; the caller owns the stream and the batches it hands out. The query starts on
     * the node when this returns, so a caller that opens all shards' streams first reads them
     * while they all run.
     */
    BatchStream fetch(Member node, String sql);

    /** Sends {@code rows} of {@code table} to {@code node}, which stages them unpublished under {@code load}. */
    void stage(Member node, String load, String table, BatchStream rows);

    /** Drops what {@code node} staged under {@code load}; nothing when it staged nothing. */
    void abort(Member node, String load);

    @Override
    void close();
}
