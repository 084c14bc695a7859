package io.warpdb.cluster;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.core.types.Schema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;

/**
 * {@link Exchange} over UCX (seed 000's transport, through jucx; host memory): every row between
 * nodes travels as frames of a {@link UcxChannel}, compressed per column as {@code
 * wire.compression} says for its two nodes ({@link WireCompression}): a fetch's ({@code OPEN} carries the ticket, the shard streams the rows
 * back), a load's, and the rows shards send each other (one channel per sender, receiver and
 * exchange id, the receiver's {@link UcxShardService} putting them into its {@link ExchangeInbox}).
 * Control stays on Arrow Flight, where no rows move: a node's UCX worker address is asked of its
 * Flight service once, then kept while UCX finds it alive (the transport also learns it from every
 * channel the node opens: a restarted node, which has a new one, opens one to every node before it
 * serves, {@link #announce}); an abort and a release are Flight actions.
 */
public final class UcxExchange implements Exchange {
    private final FlightExchange control;
    private final Member self;
    private final BufferAllocator allocator;
    private final Duration timeout;
    private final WireCompression compression;
    private final UcxShardService service;
    private final UcxTransport transport;
    private final Optional<DeviceExchange> device;
    /** Tell the other nodes this one's worker address when it starts ({@link #announce}). */
    private static final ExecutorService ANNOUNCERS = DaemonThreads.cachedPool("ucx-announce");
    /** The worker addresses being asked of the nodes' Flight services now, by node id: the calls that start meanwhile share them. */
    private final Map<String, CompletableFuture<byte[]>> asking = new ConcurrentHashMap<>();

    /**
     * Starts this node's UCX endpoint and its shard service over {@code shard}; takes over {@code
     * control}; {@code device}: how rows hashed on this node's device move device to device to the
     * processes of its host that can map its memory, if they do. Fails with SQLSTATE 08001 when UCX
     * cannot be loaded.
     */
    static UcxExchange start(FlightExchange control, Member self, ShardStore shard, List<Member> members, BufferAllocator allocator,
            Duration timeout, WireCompression compression, Optional<DeviceExchange> device) {
        return new UcxExchange(control, self, shard, members, allocator, timeout, compression, device);
    }

    private UcxExchange(FlightExchange control, Member self, ShardStore shard, List<Member> members, BufferAllocator allocator,
            Duration timeout, WireCompression compression, Optional<DeviceExchange> device) {
        this.control = control;
        this.device = device;
        this.self = self;
        this.allocator = allocator;
        this.timeout = timeout;
        this.compression = compression;
        // the service runs requests through this exchange; none comes before the worker's address is published (over Flight)
        this.service = new UcxShardService(shard, allocator, this, control.inbox(), members, timeout, compression.toAnyOf(self, members),
                device);
        try {
            this.transport = UcxTransport.start(self.id(), service);
        } catch (RuntimeException e) {
            service.close();
            throw e;
        }
    }

    /** This node's UCX worker address, which its Flight service publishes. */
    byte[] address() {
        return transport.address();
    }

    @Override
    public String name() {
        return "UCX" + compression.describe() + (device.isPresent() ? ", device to device over CUDA IPC within a host" : "");
    }

    @Override
    public Optional<DeviceExchange> device() {
        return device;
    }

    @Override
    public Member self() {
        return self;
    }

    @Override
    public BatchStream fetch(Member node, long logIndex, String sql) {
        UcxChannel channel = open(node, UcxShardService.FETCH, ShardService.request(logIndex, sql));
        return channel.receiveBatches(allocator, timeout, FlightExchange.notAnswering(node, timeout));
    }

    @Override
    public void stage(Member node, long logIndex, String load, String table, BatchStream rows) {
        try (UcxChannel channel = open(node, UcxShardService.STAGE, ShardService.request(logIndex, load + "/" + table))) {
            channel.sendBatches(rows, compression.between(self, node), allocator, timeout);
            channel.awaitEnd(timeout, FlightExchange.notAnswering(node, timeout));
        }
    }

    @Override
    public void abort(Member node, String load) {
        control.abort(node, load);
    }

    @Override
    public Outbox send(Member peer, String exchange, Schema schema) {
        return send(peer, exchange, schema, compression.between(self, peer), new WireCodec.Choices(schema));
    }

    /**
     * The streams to {@code peers} share one choice of encodings per column: the sender samples its
     * rows once for all of them; compressed per wire.compression (for each peer) and {@code compress}.
     */
    @Override
    public List<Outbox> send(List<Member> peers, String exchange, Schema schema, boolean compress) {
        WireCodec.Choices choices = new WireCodec.Choices(schema);
        return Exchange.openAll(peers, peer -> send(peer, exchange, schema, compress && compression.between(self, peer), choices));
    }

    private Outbox send(Member peer, String exchange, Schema schema, boolean compress, WireCodec.Choices choices) {
        if (peer.id().equals(self.id())) {
            return new LocalOutbox(control.inbox(), exchange, self.id());
        }
        byte[] deviceAddress = device.map(DeviceExchange::address).orElse(null);
        long lookup = System.nanoTime();
        byte[] address = address(peer);
        long lookupNanos = System.nanoTime() - lookup;
        UcxChannel channel = transport.open(address, FlightExchange.describe(peer), deviceAddress == null
                ? UcxShardService.exchangeRequest(exchange, self.id()) : UcxShardService.exchangeRequest(exchange, self.id(), deviceAddress));
        return new UcxOutbox(channel, FlightExchange.describe(peer), schema, compress, choices, allocator, timeout, deviceAddress != null,
                lookupNanos);
    }

    @Override
    public BatchStream receive(String exchange, List<Member> senders, Schema schema) {
        return control.inbox().receive(exchange, senders, schema);
    }

    @Override
    public void release(Member node, String query) {
        control.release(node, query);
    }

    private UcxChannel open(Member node, byte kind, String text) {
        return transport.open(address(node), FlightExchange.describe(node), UcxShardService.request(kind, text));
    }

    /**
     * {@code node}'s worker address: as the transport knows it ({@link UcxTransport#knownAddress}),
     * else asked of its Flight service; a question to it under way (the coordinator's requests and
     * its own fragment's outboxes start together) is answered for every caller that comes meanwhile.
     */
    private byte[] address(Member node) {
        byte[] known = transport.knownAddress(node.id());
        if (known != null) {
            return known;
        }
        CompletableFuture<byte[]> mine = new CompletableFuture<>();
        CompletableFuture<byte[]> underWay = asking.putIfAbsent(node.id(), mine);
        if (underWay != null) {
            return Futures.join(underWay);
        }
        try {
            byte[] address = control.ucxAddress(node);
            transport.remember(node.id(), address);
            mine.complete(address);
            return address;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            asking.remove(node.id(), mine);
        }
    }

    /**
     * Opens a channel to every other member, so that each remembers this node's worker address (a
     * restarted node has a new one) before any of them may reach it; waits at most {@code patience}.
     * A member not reached (down, or not started yet) asks for the address when it next needs it.
     */
    void announce(List<Member> members, Duration patience) {
        List<CompletableFuture<Void>> told = members.stream().filter(m -> !m.id().equals(self.id()))
                .map(m -> CompletableFuture.runAsync(() -> {
                    try (UcxChannel channel = open(m, UcxShardService.HELLO, self.id())) {
                        channel.awaitEnd(patience, FlightExchange.notAnswering(m, patience));
                    }
                }, ANNOUNCERS)).toList();
        try {
            CompletableFuture.allOf(told.toArray(CompletableFuture[]::new)).get(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // a member not reached: see above
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        try {
            transport.close();
            service.close();
        } finally {
            control.close();
        }
    }
}
