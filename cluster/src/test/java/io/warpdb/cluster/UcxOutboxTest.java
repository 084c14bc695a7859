package io.warpdb.cluster;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rows between shards over UCX, two endpoints in one process (the system's UCX must be installed:
 * Debian libucx0): a sender's {@link UcxOutbox} to a receiver whose {@link UcxShardService} puts
 * them into its {@link ExchangeInbox}. Rows arrive whole and in order, compressed; a failed
 * sender's error reaches the reader with its SQLSTATE; an outbox closed unfinished, a sender that
 * sends nothing within the timeout and a sender whose node is gone fail the reader naming it; a
 * released query cancels its senders; a receiver that takes nothing stops a sender after the
 * credit window.
 */
class UcxOutboxTest {
    static final Schema SCHEMA = new Schema(List.of(new Field("k", DataType.BIGINT)));
    static final Duration PATIENCE = Duration.ofSeconds(30);
    static final Member SENDER = new Member("n1", "127.0.0.1", 1, 2, 3);
    static final String EXCHANGE = "q1/1";

    private final BufferAllocator allocator = new RootAllocator();
    /** The node timeout of the reader's waits: a gone sender fails it at once when UCX notices, at the latest after this. */
    private final ExchangeInbox inbox = new ExchangeInbox(Duration.ofSeconds(5));
    private final UcxShardService service = new UcxShardService(null, allocator, null, inbox, List.of(), PATIENCE, true, Optional.empty());
    private final UcxTransport receiver = UcxTransport.start("n2", service);
    private final UcxTransport sender = UcxTransport.start("n1", (channel, request) -> {
        throw new AssertionError("the sender accepts nothing");
    });

    @AfterEach
    void close() {
        sender.close();
        receiver.close();
        service.close();
        inbox.close();
        allocator.close();
    }

    private UcxOutbox outbox() {
        UcxChannel channel = sender.open(receiver.address(), "node n2", UcxShardService.exchangeRequest(EXCHANGE, SENDER.id()));
        return new UcxOutbox(channel, "node n2", SCHEMA, true, new WireCodec.Choices(SCHEMA), allocator, PATIENCE, false, 0);
    }

    @Test
    void moreBatchesThanTheCreditWindowArriveInOrderCompressed() {
        int count = UcxChannel.WINDOW * 3 + 1;
        long wire = 0;
        try (UcxOutbox out = outbox()) {
            for (int b = 0; b < count; b++) {
                wire += out.put(batch(b));
            }
            out.finish();
        }
        assertTrue(wire > 0 && wire < count * 1000L * Long.BYTES / 2, "wire bytes " + wire);
        try (BatchStream rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            List<Long> firsts = new ArrayList<>();
            for (Batch b = rows.next(); b != null; b = rows.next()) {
                try (Batch batch = b) {
                    assertEquals(1000, batch.rowCount());
                    assertEquals((Long) batch.getObject(0, 0) + 999, batch.getObject(0, 999));
                    firsts.add((Long) batch.getObject(0, 0));
                }
            }
            List<Long> expected = new ArrayList<>();
            for (long b = 0; b < count; b++) {
                expected.add(b * 1000);
            }
            assertEquals(expected, firsts);
        }
    }

    @Test
    void aFailedSendersErrorReachesTheReaderWithItsSqlState() {
        try (UcxOutbox out = outbox()) {
            out.put(batch(0));
            out.fail(new WarpException(SqlState.DIVISION_BY_ZERO, "division by zero"));
        }
        try (BatchStream rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            WarpException e = assertThrows(WarpException.class, () -> drain(rows));
            assertEquals(SqlState.DIVISION_BY_ZERO, e.state());
            assertEquals("division by zero", e.getMessage());
        }
    }

    @Test
    void anOutboxClosedUnfinishedFailsTheReader() {
        try (UcxOutbox out = outbox()) {
            out.put(batch(0));
        }
        try (BatchStream rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            WarpException e = assertThrows(WarpException.class, () -> drain(rows));
            assertEquals(SqlState.CONNECTION_FAILURE, e.state());
        }
    }

    @Test
    void aSenderWhoseNodeIsGoneFailsTheReaderNamingIt() {
        UcxOutbox out = outbox();
        out.put(batch(0));
        sender.close(); // the node stops: UCX's peer error handling fails the receiver's channel
        try (BatchStream rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            WarpException e = assertThrows(WarpException.class, () -> drain(rows));
            assertEquals(SqlState.CONNECTION_FAILURE, e.state());
            assertTrue(e.getMessage().contains("node n1"), e.getMessage());
        }
    }

    @Test
    void aSenderThatSendsNothingFailsTheReaderWithinTheTimeout() {
        ExchangeInbox impatient = new ExchangeInbox(Duration.ofMillis(300));
        try (BatchStream rows = impatient.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            WarpException e = assertThrows(WarpException.class, rows::next);
            assertEquals(SqlState.CONNECTION_FAILURE, e.state());
            assertTrue(e.getMessage().startsWith("node n1 (127.0.0.1:2) did not send its rows of exchange q1/1"), e.getMessage());
        } finally {
            impatient.close();
        }
    }

    @Test
    void aReleasedQueryDropsItsRowsAndCancelsItsSenders() {
        try (UcxOutbox out = outbox()) {
            out.put(batch(0));
            inbox.release("q1");
            WarpException e = assertThrows(WarpException.class, () -> {
                for (int b = 1; b < 10_000; b++) {
                    out.put(batch(b));
                }
            });
            assertEquals(SqlState.QUERY_CANCELED, e.state(), e.getMessage());
        }
        try (BatchStream rows = inbox.receive(EXCHANGE, List.of(SENDER), SCHEMA)) {
            assertEquals(SqlState.QUERY_CANCELED, assertThrows(WarpException.class, rows::next).state());
        }
    }

    @Test
    void aReceiverThatTakesNothingStopsTheSenderAfterTheCreditWindow() {
        CompletableFuture<UcxChannel> accepted = new CompletableFuture<>();
        try (UcxTransport idle = UcxTransport.start("idle", (channel, request) -> accepted.complete(channel));
                UcxChannel channel = sender.open(idle.address(), "node idle", ByteBuffer.allocate(0));
                UcxChannel.BatchSender out = channel.sendingBatches(SCHEMA, false, new WireCodec.Choices(SCHEMA), allocator, Duration.ofMillis(300))) {
            for (int b = 0; b < UcxChannel.WINDOW; b++) {
                try (Batch batch = batch(b)) {
                    out.put(batch);
                }
            }
            try (Batch batch = batch(UcxChannel.WINDOW)) {
                WarpException e = assertThrows(WarpException.class, () -> out.put(batch));
                assertEquals(SqlState.CONNECTION_FAILURE, e.state());
                assertEquals("node idle took no rows for 0 s", e.getMessage());
            }
            accepted.join().close();
        }
    }

    private static void drain(BatchStream rows) {
        for (Batch b = rows.next(); b != null; b = rows.next()) {
            b.close();
        }
        assertNull(rows.next());
    }

    private Batch batch(int b) {
        return batch(b, allocator);
    }

    /** 1000 keys from {@code 1000 * b}. */
    static Batch batch(int b, BufferAllocator allocator) {
        FieldVector keys = Vectors.allocate("k", DataType.BIGINT, 1000, allocator);
        for (int r = 0; r < 1000; r++) {
            Vectors.setNormalized(keys, DataType.BIGINT, r, b * 1000L + r);
        }
        keys.setValueCount(1000);
        return new Batch(SCHEMA, List.of(keys), Collections.singletonList(null), 1000);
    }
}
