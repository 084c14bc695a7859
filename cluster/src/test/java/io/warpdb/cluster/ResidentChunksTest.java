package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/**
 * A sender hashes rows resident on its device a chunk at a time ({@link ShardFragment#splitByChunk}):
 * the chunks cover the rows in order and are sent in order, the next chunk hashed (one, not more)
 * while the one before is sent, so that its kernels overlap the hand-over and the receivers'
 * copies; when the device has no room for a chunk the rest is left to the host path; a failed send
 * drops the chunk hashed ahead; and a chunk is about {@link ShardFragment#DEVICE_CHUNK_BYTES} of
 * the rows' columns.
 */
class ResidentChunksTest {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.BIGINT), new Field("p", DataType.BIGINT));

    @Test
    void chunksCoverTheRowsInOrderAndOneIsHashedAheadOfTheSend() {
        List<String> splits = Collections.synchronizedList(new ArrayList<>());
        RecordingDevice device = new RecordingDevice(splits, Integer.MAX_VALUE);
        List<Integer> sent = new ArrayList<>();
        List<Long> hashing = new ArrayList<>();
        int hashed = ShardFragment.splitByChunk(rows(10_000), 3_000, device, List.of(0), 4, hashing::add, parts -> {
            // chunk k is sent with at most chunk k + 1 hashed, never k + 2
            assertTrue(splits.size() <= sent.size() + 2, "more than one chunk hashed ahead: " + splits);
            sent.add(parts.rows(0));
            parts.close();
        });
        assertEquals(10_000, hashed);
        assertEquals(List.of("split 0+3000", "split 3000+3000", "split 6000+3000", "split 9000+1000"), splits);
        assertEquals(List.of(3_000, 3_000, 3_000, 1_000), sent);
        assertEquals(4, hashing.size(), "each chunk's hashing time counted");
        assertEquals(0, device.open.get(), "every chunk's parts closed");
    }

    @Test
    void theNextChunkIsHashedWhileThePreviousIsSent() throws Exception {
        CountDownLatch firstSendBegun = new CountDownLatch(1);
        List<String> splits = Collections.synchronizedList(new ArrayList<>());
        RecordingDevice device = new RecordingDevice(splits, Integer.MAX_VALUE) {
            @Override
            public Optional<DeviceParts> split(ResidentRows rows, int from, int count, List<Integer> keys, int parts) {
                Optional<DeviceParts> hashed = super.split(rows, from, count, keys, parts);
                if (from == 2_000) {
                    // the second chunk's hashing ends only once the first chunk's send has begun
                    await(firstSendBegun);
                }
                return hashed;
            }
        };
        List<Integer> sent = new ArrayList<>();
        ShardFragment.splitByChunk(rows(4_000), 2_000, device, List.of(0), 2, nanos -> { }, parts -> {
            firstSendBegun.countDown();
            // the first send waits for the second chunk's hashing to have started: both at once
            if (sent.isEmpty()) {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (splits.size() < 2 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertEquals(2, splits.size(), "the second chunk was not hashed while the first was sent");
            }
            sent.add(parts.rows(0));
            parts.close();
        });
        assertEquals(List.of(2_000, 2_000), sent);
        assertEquals(0, device.open.get());
    }

    @Test
    void aChunkTheDeviceHasNoRoomForLeavesTheRestToTheHost() {
        List<String> splits = Collections.synchronizedList(new ArrayList<>());
        RecordingDevice device = new RecordingDevice(splits, 2);
        List<Integer> sent = new ArrayList<>();
        int hashed = ShardFragment.splitByChunk(rows(10_000), 3_000, device, List.of(0), 4, nanos -> { }, parts -> {
            sent.add(parts.rows(0));
            parts.close();
        });
        assertEquals(6_000, hashed, "rows [6000, 10000) go through the host");
        assertEquals(List.of(3_000, 3_000), sent);
        assertEquals(List.of("split 0+3000", "split 3000+3000", "split 6000+3000"), splits);
        assertEquals(0, device.open.get());
    }

    @Test
    void aFailedSendDropsTheChunkHashedAhead() {
        List<String> splits = Collections.synchronizedList(new ArrayList<>());
        RecordingDevice device = new RecordingDevice(splits, Integer.MAX_VALUE);
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> ShardFragment.splitByChunk(rows(10_000), 3_000, device, List.of(0), 4, nanos -> { }, parts -> {
                    parts.close();
                    throw new IllegalStateException("receiver gone");
                }));
        assertEquals("receiver gone", failure.getMessage());
        assertEquals(List.of("split 0+3000", "split 3000+3000"), splits);
        assertEquals(0, device.open.get(), "the second chunk's parts closed");
    }

    @Test
    void aFailedHashingIsRethrownAsItWasThrown() {
        RecordingDevice device = new RecordingDevice(Collections.synchronizedList(new ArrayList<>()), Integer.MAX_VALUE) {
            @Override
            public Optional<DeviceParts> split(ResidentRows rows, int from, int count, List<Integer> keys, int parts) {
                if (from > 0) {
                    throw new IllegalArgumentException("kernel failed");
                }
                return super.split(rows, from, count, keys, parts);
            }
        };
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> ShardFragment.splitByChunk(rows(10_000), 3_000, device, List.of(0), 4, nanos -> { }, DeviceParts::close));
        assertEquals("kernel failed", failure.getMessage());
        assertEquals(0, device.open.get());
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS), "the first chunk was never sent");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void noRowsNoChunk() {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        assertEquals(0, ShardFragment.splitByChunk(rows(0), 3_000, new RecordingDevice(events, 9), List.of(0), 4, nanos -> { },
                parts -> events.add("send")));
        assertTrue(events.isEmpty());
    }

    @Test
    void aChunkIsAboutTheChunkBytesOfTheRowsColumns() {
        long perRow = 16;
        int chunkRows = ShardFragment.deviceChunkRows(rows(1 << 30));
        assertEquals(ShardFragment.DEVICE_CHUNK_BYTES / perRow, chunkRows);
        assertEquals(1, ShardFragment.deviceChunkRows(new FakeRows(0) {
            @Override
            public long bytes() {
                return Long.MAX_VALUE / 2;
            }
        }), "at least a row");
    }

    private static ResidentRows rows(int count) {
        return new FakeRows(count);
    }

    /** Rows of two BIGINT columns that only their count and size describe: nothing here reads them. */
    private static class FakeRows implements ResidentRows {
        private final int count;

        FakeRows(int count) {
            this.count = count;
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public int rowCount() {
            return count;
        }

        @Override
        public long bytes() {
            return 16L * count;
        }

        @Override
        public Batch toHost(List<Integer> columns, int from, int count, BufferAllocator allocator) {
            throw new AssertionError("not read on the host");
        }

        @Override
        public void close() {
        }
    }

    /** Records each split; has room for {@code room} chunks' parts, then none. */
    private static class RecordingDevice implements DeviceExchange {
        private final List<String> events;
        private final AtomicInteger room;
        final AtomicInteger open = new AtomicInteger();

        RecordingDevice(List<String> events, int room) {
            this.events = events;
            this.room = new AtomicInteger(room);
        }

        @Override
        public boolean available() {
            return true;
        }

        @Override
        public byte[] address() {
            return new byte[0];
        }

        @Override
        public boolean reaches(byte[] peerAddress) {
            return false;
        }

        @Override
        public Optional<DeviceParts> split(List<Batch> batches, List<Integer> keys, int parts) {
            throw new AssertionError("only resident rows here");
        }

        @Override
        public Optional<DeviceParts> split(ResidentRows rows, int from, int count, List<Integer> keys, int parts) {
            events.add("split " + from + "+" + count);
            if (room.getAndDecrement() <= 0) {
                return Optional.empty();
            }
            open.incrementAndGet();
            return Optional.of(new DeviceParts() {
                @Override
                public int parts() {
                    return parts;
                }

                @Override
                public int rows(int part) {
                    return part == 0 ? count : 0;
                }

                @Override
                public long bytes(int part) {
                    return 16L * rows(part);
                }

                @Override
                public ResidentRows take(int part) {
                    throw new AssertionError();
                }

                @Override
                public Batch toHost(int part, BufferAllocator allocator) {
                    throw new AssertionError();
                }

                @Override
                public Exported export(int part) {
                    throw new AssertionError();
                }

                @Override
                public void close() {
                    open.decrementAndGet();
                }
            });
        }

        @Override
        public ResidentRows pull(byte[] peerAddress, ByteBuffer descriptor, Schema schema) {
            throw new AssertionError();
        }

        @Override
        public void forget(byte[] peerAddress) {
        }
    }
}
