package io.warpdb.cluster;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.types.Schema;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * {@link Exchange} over UCX (seed 000's transport, through jucx; host memory): rows travel as
 * frames of a {@link UcxChannel}, compressed per column when {@code wire.compression = auto}.
 * Control stays on Arrow Flight: a node's UCX worker address is asked of its Flight service
 * before each call (a restarted node has a new one), and an abort, which carries no rows, is a
 * Flight action. Rows moved between shards (repartitioned and broadcast joins: {@link #send},
 * {@link #receive}) still travel over Flight, and so do the fragments that send or read them;
 * carrying them on {@link UcxChannel}s is the next step.
 */
public final class UcxExchange implements Exchange {
    private final UcxTransport transport;
    private final FlightExchange control;
    private final BufferAllocator allocator;
    private final Duration timeout;
    private final boolean compressed;

    /** Takes over {@code control}; the transport stays its owner's. */
    UcxExchange(UcxTransport transport, FlightExchange control, BufferAllocator allocator, Duration timeout, boolean compressed) {
        this.transport = transport;
        this.control = control;
        this.allocator = allocator;
        this.timeout = timeout;
        this.compressed = compressed;
    }

    @Override
    public String name() {
        return "UCX" + (compressed ? " (compressed)" : "");
    }

    @Override
    public BatchStream fetch(Member node, String sql) {
        if (FragmentTicket.movesRows(sql)) {
            return control.fetch(node, sql);
        }
        UcxChannel channel = open(node, UcxShardService.FETCH, sql);
        return channel.receiveBatches(allocator, timeout, FlightExchange.notAnswering(node, timeout));
    }

    @Override
    public void stage(Member node, String load, String table, BatchStream rows) {
        try (UcxChannel channel = open(node, UcxShardService.STAGE, load + "/" + table)) {
            channel.sendBatches(rows, compressed, allocator, timeout);
            channel.awaitEnd(timeout, FlightExchange.notAnswering(node, timeout));
        }
    }

    @Override
    public void abort(Member node, String load) {
        control.abort(node, load);
    }

    @Override
    public Outbox send(Member peer, String exchange, Schema schema) {
        return control.send(peer, exchange, schema);
    }

    @Override
    public BatchStream receive(String exchange, List<Member> senders, Schema schema) {
        return control.receive(exchange, senders, schema);
    }

    @Override
    public void release(Member node, String query) {
        control.release(node, query);
    }

    private UcxChannel open(Member node, byte kind, String text) {
        return transport.open(control.ucxAddress(node), FlightExchange.describe(node), UcxShardService.request(kind, text));
    }

    @Override
    public void close() {
        control.close();
    }
}
