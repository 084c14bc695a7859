package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two UCX endpoints in one process (the system's UCX must be installed: Debian libucx0): a stream
 * of more batches than the flow-control window, both ways; an error frame's SQLSTATE; a silent
 * peer past the timeout; a receiver that cancels, which stops the sender; a node's address known
 * from the channels open to it while one is, from the channels it opened, or as remembered, until
 * UCX finds it gone; a receiver's answer to a device offer kept for its process.
 */
class UcxChannelTest {
    private static final Schema SCHEMA = new Schema(List.of(new Field("k", DataType.BIGINT)));
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final BufferAllocator allocator = new RootAllocator();
    /** What the serving side did with its last request: null, or how it failed. */
    private final CompletableFuture<RuntimeException> served = new CompletableFuture<>();
    private final UcxTransport client = UcxTransport.start("client", (channel, request) -> {
        throw new AssertionError("the client accepts nothing");
    });
    private final UcxTransport server = UcxTransport.start("server", this::serve);

    @AfterEach
    void close() {
        client.close();
        server.close();
        allocator.close();
    }

    /**
     * Requests name what to do: "send N" batches, "timed N" (the rows reporting their node's times),
     * "accept" a device offer, "fail", "silent", "receive" (and acknowledge).
     */
    private void serve(UcxChannel channel, ByteBuffer request) {
        String what = StandardCharsets.UTF_8.decode(request).toString();
        new Thread(() -> {
            try (channel) {
                if (what.startsWith("send ")) {
                    channel.sendBatches(batches(Integer.parseInt(what.substring(5))), true, allocator, PATIENCE);
                } else if (what.startsWith("timed ")) {
                    channel.sendBatches(new Keys(Integer.parseInt(what.substring(6)), new NodeTimes(1, 2, 3)), true, allocator, PATIENCE);
                } else if (what.equals("accept")) {
                    channel.sendAccept(true, PATIENCE);
                } else if (what.equals("fail")) {
                    channel.sendError(SqlState.UNDEFINED_TABLE, "table t does not exist");
                } else if (what.equals("receive")) {
                    try (UcxChannel.ReceivedBatches rows = channel.receiveBatches(allocator, PATIENCE, "late")) {
                        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L), keys(rows));
                    }
                    channel.send(UcxChannel.END, ByteBuffer.allocate(0), PATIENCE);
                }
                served.complete(null);
            } catch (RuntimeException | AssertionError e) {
                served.complete(e instanceof RuntimeException r ? r : new IllegalStateException(e));
            }
        }).start();
    }

    private UcxChannel open(String request) {
        return client.open(server.address(), "the server", ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void moreBatchesThanTheWindowArriveInOrder() throws Exception {
        int count = UcxChannel.WINDOW * 3 + 1;
        try (UcxChannel.ReceivedBatches rows = open("send " + count).receiveBatches(allocator, PATIENCE, "late")) {
            assertEquals(count, keys(rows).size());
            assertTrue(rows.wireBytes() > 0);
        }
        assertEquals(null, served.get());
    }

    @Test
    void rowsGoTheOtherWayAndAreAcknowledged() throws Exception {
        try (UcxChannel channel = open("receive")) {
            channel.sendBatches(batches(12), false, allocator, PATIENCE);
            channel.awaitEnd(PATIENCE, "late");
        }
        assertEquals(null, served.get());
    }

    @Test
    void theEndFrameCarriesTheNodeTimesTheRowsReport() throws Exception {
        try (UcxChannel.ReceivedBatches rows = open("timed 2").receiveBatches(allocator, PATIENCE, "late")) {
            assertEquals(2, keys(rows).size());
            assertEquals(new NodeTimes(1, 2, 3), rows.nodeTimes());
        }
        try (UcxChannel.ReceivedBatches rows = open("send 2").receiveBatches(allocator, PATIENCE, "late")) {
            assertEquals(2, keys(rows).size());
            assertNull(rows.nodeTimes());
        }
        assertEquals(null, served.get());
    }

    @Test
    void anErrorFrameCarriesItsSqlState() {
        try (UcxChannel.ReceivedBatches rows = open("fail").receiveBatches(allocator, PATIENCE, "late")) {
            WarpException e = assertThrows(WarpException.class, rows::schema);
            assertEquals(SqlState.UNDEFINED_TABLE, e.state());
            assertEquals("table t does not exist", e.getMessage());
        }
    }

    @Test
    void aSilentPeerFailsTheWaitAfterTheTimeout() {
        try (UcxChannel.ReceivedBatches rows = open("silent").receiveBatches(allocator, Duration.ofMillis(300), "node x is late")) {
            WarpException e = assertThrows(WarpException.class, rows::schema);
            assertEquals(SqlState.CONNECTION_FAILURE, e.state());
            assertEquals("node x is late", e.getMessage());
        }
    }

    @Test
    void aReceiverThatClosesEarlyStopsTheSender() throws Exception {
        try (UcxChannel.ReceivedBatches rows = open("send 1000000").receiveBatches(allocator, PATIENCE, "late")) {
            rows.next().close();
        }
        RuntimeException failure = served.get();
        assertTrue(failure instanceof WarpException w && w.state() == SqlState.QUERY_CANCELED, String.valueOf(failure));
    }

    @Test
    void aNodesAddressIsKnownFromItsChannelsAndWhileAChannelToItIsOpen() throws Exception {
        assertNull(client.knownAddress("server"));
        // named as UcxExchange names the nodes it opens channels to (FlightExchange.describe)
        try (UcxChannel channel = client.open(server.address(), "node server (127.0.0.1:1)", ByteBuffer.wrap("receive".getBytes(
                StandardCharsets.UTF_8)))) {
            assertArrayEquals(server.address(), client.knownAddress("server"));
            assertNull(client.knownAddress("serv"));
            // the server knows the client's address from the channel's OPEN frame, once it came
            assertArrayEquals(client.address(), awaitAddress(server, "client", true));
            channel.sendBatches(batches(12), false, allocator, PATIENCE);
            channel.awaitEnd(PATIENCE, "late");
        }
        assertNull(client.knownAddress("server"));
        assertEquals(null, served.get());
        // the node that opened a channel lives there until UCX finds it gone (a restarted node opens one first)
        assertArrayEquals(client.address(), server.knownAddress("client"));
    }

    @Test
    void aRememberedAddressIsForgottenOnceItsNodeDoesNotAnswer() throws Exception {
        UcxTransport gone = UcxTransport.start("gone", (channel, request) -> channel.close());
        byte[] address = gone.address();
        client.remember("gone", address);
        assertArrayEquals(address, client.knownAddress("gone"));
        gone.close();
        try (UcxChannel channel = client.open(address, "node gone (127.0.0.1:1)", ByteBuffer.wrap("receive".getBytes(StandardCharsets.UTF_8)))) {
            // UCX over shared memory may not notice a peer gone for long: the wait's end does
            assertEquals(SqlState.CONNECTION_FAILURE, assertThrows(WarpException.class, () -> channel.awaitEnd(Duration.ofMillis(300),
                    "late")).state());
        }
        assertNull(client.knownAddress("gone"));
    }

    @Test
    void aReceiversAnswerToTheDeviceOfferIsKeptForItsProcess() {
        ByteBuffer offer = ByteBuffer.wrap("accept".getBytes(StandardCharsets.UTF_8));
        try (UcxChannel first = client.open(server.address(), "the server", offer.duplicate())) {
            assertTrue(first.awaitAccepted(PATIENCE));
        }
        // the server answers no more: the second channel takes the first's answer without waiting for one
        try (UcxChannel second = client.open(server.address(), "the server", ByteBuffer.wrap("silent".getBytes(StandardCharsets.UTF_8)))) {
            assertTrue(second.awaitAccepted(Duration.ofMillis(1)));
        }
    }

    /** {@code transport}'s live address of {@code node} once it is known (or, {@code known} false, once it is not), within the patience. */
    private static byte[] awaitAddress(UcxTransport transport, String node, boolean known) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        byte[] address = transport.knownAddress(node);
        while ((address != null) != known && System.nanoTime() < deadline) {
            Thread.sleep(5);
            address = transport.knownAddress(node);
        }
        return address;
    }

    /** {@code count} batches of 1000 keys, the first key of batch i being i. */
    private BatchStream batches(int count) {
        return new Keys(count, null);
    }

    /** {@code count} batches of 1000 keys, the first key of batch i being i; they report {@code times} as their node's. */
    private final class Keys implements BatchStream, NodeTimes.Reported {
        private final int count;
        private final NodeTimes times;
        private int sent;

        Keys(int count, NodeTimes times) {
            this.count = count;
            this.times = times;
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public Batch next() {
            if (sent == count) {
                return null;
            }
            FieldVector keys = Vectors.allocate("k", DataType.BIGINT, 1000, allocator);
            for (int r = 0; r < 1000; r++) {
                Vectors.setNormalized(keys, DataType.BIGINT, r, sent + r * 1000L);
            }
            keys.setValueCount(1000);
            sent++;
            return new Batch(SCHEMA, List.of(keys), java.util.Collections.singletonList(null), 1000);
        }

        @Override
        public NodeTimes nodeTimes() {
            return times;
        }

        @Override
        public void close() {
        }
    }

    /** The first key of each batch. */
    private static List<Long> keys(BatchStream rows) {
        List<Long> firsts = new java.util.ArrayList<>();
        for (Batch b = rows.next(); b != null; b = rows.next()) {
            try (Batch batch = b) {
                assertEquals(1000, batch.rowCount());
                firsts.add((Long) batch.getObject(0, 0));
            }
        }
        return firsts;
    }
}
