package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The device-frame protocol over UCX without a GPU: {@link HostMemoryDevice} stands in for a
 * device, its "device memory" a table of host batches that both endpoints of this process share.
 * A receiver that reaches the sender accepts its offer, pulls every part and credits it, and the
 * sender frees each part once credited (at most a window's worth held); its rows come out of the
 * inbox as resident rows, not batches. A receiver that cannot reach the sender, or has no device,
 * declines, and the sender takes the host path. The receiver's end frame tells the sender how long
 * its copies took. A stream closed unfinished frees what it held; a
 * sender whose node is gone has its mapping closed on the receiver.
 */
class DeviceFramesTest {
    private static final Schema SCHEMA = UcxOutboxTest.SCHEMA;
    private static final Duration PATIENCE = UcxOutboxTest.PATIENCE;
    private static final Member SENDER = UcxOutboxTest.SENDER;
    private static final String EXCHANGE = UcxOutboxTest.EXCHANGE;

    private final BufferAllocator allocator = new RootAllocator();
    private final ExchangeInbox inbox = new ExchangeInbox(Duration.ofSeconds(5));
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        inbox.close();
        allocator.close();
    }

    /** A receiving node's transport whose service pulls with {@code device}. */
    private UcxTransport receiver(Optional<DeviceExchange> device) {
        UcxShardService service = new UcxShardService(null, allocator, null, inbox, List.of(), PATIENCE, true, device);
        UcxTransport transport = UcxTransport.start("n2", service);
        opened.add(service);
        opened.add(transport);
        return transport;
    }

    private UcxOutbox outbox(UcxTransport receiver, HostMemoryDevice device) {
        return outbox(receiver, device, sender());
    }

    private UcxTransport sender() {
        UcxTransport sender = UcxTransport.start("n1", (channel, request) -> {
            throw new AssertionError("the sender accepts nothing");
        });
        opened.add(sender);
        return sender;
    }

    private UcxOutbox outbox(UcxTransport receiver, HostMemoryDevice device, UcxTransport sender) {
        UcxChannel channel = sender.open(receiver.address(), "node n2", UcxShardService.exchangeRequest(EXCHANGE, SENDER.id(), device.address()));
        return new UcxOutbox(channel, "node n2", SCHEMA, true, new WireCodec.Choices(SCHEMA), allocator, PATIENCE, true, 0);
    }

    @Test
    void aReceiverThatReachesTheSenderPullsEveryPartAndTheSenderFreesThemOnCredit() {
        HostMemoryDevice sending = new HostMemoryDevice("sender", true, allocator);
        HostMemoryDevice receiving = new HostMemoryDevice("receiver", true, allocator);
        UcxTransport receiver = receiver(Optional.of(receiving));
        int chunks = UcxChannel.WINDOW * 3 + 1;
        try (UcxOutbox out = outbox(receiver, sending)) {
            assertTrue(out.takesDevice());
            for (int c = 0; c < chunks; c++) {
                try (Batch input = batch(c); DeviceParts parts = sending.split(List.of(input), List.of(0), 1).orElseThrow()) {
                    assertTrue(out.putDevice(parts, 0) > 0);
                }
                assertTrue(sending.held.get() <= UcxChannel.WINDOW + 1, "held " + sending.held.get());
            }
            out.finish();
            assertTrue(out.pulledNanos() > 0, "the receiver's end says how long its copies took");
        }
        assertEquals(0, sending.held.get(), "every exported part freed once the receiver ended");
        try (ExchangeInbox.Received rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            assertEquals(null, rows.next(), "no host batches");
            List<ResidentRows> resident = rows.takeDeviceRows();
            assertEquals(chunks, resident.size());
            long sum = 0;
            for (ResidentRows r : resident) {
                try (r; Batch host = r.toHost(List.of(0), allocator)) {
                    for (int i = 0; i < host.rowCount(); i++) {
                        sum += (Long) host.getObject(0, i);
                    }
                }
            }
            long n = chunks * 1000L;
            assertEquals(n * (n - 1) / 2, sum);
        }
    }

    @Test
    void aReceiverThatCannotReachTheSenderDeclinesAndRowsTakeTheHostPath() {
        HostMemoryDevice sending = new HostMemoryDevice("sender", true, allocator);
        UcxTransport receiver = receiver(Optional.of(new HostMemoryDevice("receiver", false, allocator)));
        try (UcxOutbox out = outbox(receiver, sending)) {
            assertFalse(out.takesDevice());
            out.put(batch(0));
            out.finish();
            assertEquals(0, out.pulledNanos(), "nothing copied device to device");
        }
        try (ExchangeInbox.Received rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            try (Batch b = rows.next()) {
                assertEquals(1000, b.rowCount());
            }
            assertEquals(null, rows.next());
            assertEquals(List.of(), rows.takeDeviceRows());
        }
    }

    @Test
    void aReceiverWithoutADeviceDeclines() {
        UcxTransport receiver = receiver(Optional.empty());
        try (UcxOutbox out = outbox(receiver, new HostMemoryDevice("sender", true, allocator))) {
            assertFalse(out.takesDevice());
            out.finish();
        }
    }

    @Test
    void aStreamClosedUnfinishedFreesThePartsItHeldAndFailsTheReader() {
        HostMemoryDevice sending = new HostMemoryDevice("sender", true, allocator);
        UcxTransport receiver = receiver(Optional.of(new HostMemoryDevice("receiver", true, allocator)));
        try (UcxOutbox out = outbox(receiver, sending)) {
            assertTrue(out.takesDevice());
            try (Batch input = batch(0); DeviceParts parts = sending.split(List.of(input), List.of(0), 1).orElseThrow()) {
                out.putDevice(parts, 0);
            }
        }
        assertEquals(0, sending.held.get());
        try (ExchangeInbox.Received rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            // the sender's error, or the receiver's failed copy of memory the sender freed meanwhile: either fails the reader
            assertThrows(WarpException.class, rows::next);
        }
    }

    @Test
    void aSenderWhoseNodeIsGoneHasItsMappingClosed() {
        HostMemoryDevice sending = new HostMemoryDevice("sender", true, allocator);
        HostMemoryDevice receiving = new HostMemoryDevice("receiver", true, allocator);
        UcxTransport receiver = receiver(Optional.of(receiving));
        UcxTransport sender = sender();
        UcxOutbox out = outbox(receiver, sending, sender);
        assertTrue(out.takesDevice());
        try (Batch input = batch(0); DeviceParts parts = sending.split(List.of(input), List.of(0), 1).orElseThrow()) {
            out.putDevice(parts, 0);
        }
        sender.close(); // the node stops: UCX's peer error handling fails the receiver's channel
        try (ExchangeInbox.Received rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            assertThrows(WarpException.class, () -> {
                for (Batch b = rows.next(); b != null; b = rows.next()) {
                    b.close();
                }
            });
            rows.takeDeviceRows().forEach(ResidentRows::close);
        }
        assertEquals(List.of("sender"), receiving.forgotten);
        out.close();
        assertEquals(0, sending.held.get());
    }

    private Batch batch(int b) {
        return UcxOutboxTest.batch(b, allocator);
    }

    /**
     * A device of host memory: exported parts lie in a table all instances of this process share,
     * by block number; a descriptor is that number. {@code reaches}: what it answers for every peer.
     */
    private static final class HostMemoryDevice implements DeviceExchange {
        private static final Map<Long, Batch> EXPORTED = new ConcurrentHashMap<>();
        private static final AtomicInteger NEXT_BLOCK = new AtomicInteger();
        private final String name;
        private final boolean reaches;
        private final BufferAllocator allocator;
        final AtomicInteger held = new AtomicInteger();
        /** The peers whose mappings {@link #forget} closed. */
        final List<String> forgotten = new java.util.concurrent.CopyOnWriteArrayList<>();

        HostMemoryDevice(String name, boolean reaches, BufferAllocator allocator) {
            this.name = name;
            this.reaches = reaches;
            this.allocator = allocator;
        }

        @Override
        public boolean available() {
            return true;
        }

        @Override
        public byte[] address() {
            return name.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public boolean reaches(byte[] peerAddress) {
            return reaches;
        }

        @Override
        public Optional<DeviceParts> split(List<Batch> batches, List<Integer> keys, int parts) {
            List<Batch> split = HashPartitioner.cpu().split(batches.get(0), keys, parts, allocator);
            return Optional.of(new DeviceParts() {
                @Override
                public int parts() {
                    return split.size();
                }

                @Override
                public int rows(int part) {
                    return split.get(part).rowCount();
                }

                @Override
                public long bytes(int part) {
                    return rows(part) * 8L;
                }

                @Override
                public ResidentRows take(int part) {
                    return resident(CpuHashPartitioner.copy(split.get(part), allocator));
                }

                @Override
                public Batch toHost(int part, BufferAllocator to) {
                    return CpuHashPartitioner.copy(split.get(part), to);
                }

                @Override
                public Exported export(int part) {
                    long block = NEXT_BLOCK.incrementAndGet();
                    EXPORTED.put(block, CpuHashPartitioner.copy(split.get(part), allocator));
                    held.incrementAndGet();
                    return new Exported() {
                        @Override
                        public ByteBuffer descriptor() {
                            return ByteBuffer.allocate(Long.BYTES).putLong(0, block);
                        }

                        @Override
                        public void close() {
                            EXPORTED.remove(block).close();
                            held.decrementAndGet();
                        }
                    };
                }

                @Override
                public void close() {
                    split.forEach(Batch::close);
                }
            });
        }

        @Override
        public Optional<DeviceParts> split(ResidentRows rows, int from, int count, List<Integer> keys, int parts) {
            return Optional.empty();
        }

        @Override
        public ResidentRows pull(byte[] peerAddress, ByteBuffer descriptor, Schema schema) {
            return resident(CpuHashPartitioner.copy(EXPORTED.get(descriptor.getLong(descriptor.position())), allocator));
        }

        @Override
        public void forget(byte[] peerAddress) {
            forgotten.add(new String(peerAddress, StandardCharsets.UTF_8));
        }

        private static ResidentRows resident(Batch rows) {
            return new ResidentRows() {
                @Override
                public Schema schema() {
                    return rows.schema();
                }

                @Override
                public int rowCount() {
                    return rows.rowCount();
                }

                @Override
                public long bytes() {
                    return rows.rowCount() * 8L;
                }

                @Override
                public Batch toHost(List<Integer> columns, int from, int count, BufferAllocator to) {
                    try (Batch slice = Batches.slice(rows, from, count, to)) {
                        return slice.project(columns, to);
                    }
                }

                @Override
                public void close() {
                    rows.close();
                }
            };
        }
    }
}
