package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/**
 * A sender hashes rows resident on its device a chunk at a time ({@link ShardFragment#splitByChunk}):
 * the chunks cover the rows in order, each chunk's parts are sent (and closed) before the next
 * chunk is hashed, so that the receivers' copies overlap the hashing; when the device has no room
 * for a chunk the rest is left to the host path; and a chunk is about {@link
 * ShardFragment#DEVICE_CHUNK_BYTES} of the rows' columns.
 */
class ResidentChunksTest {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.BIGINT), new Field("p", DataType.BIGINT));

    @Test
    void chunksCoverTheRowsInOrderEachSentBeforeTheNextIsHashed() {
        List<String> events = new ArrayList<>();
        RecordingDevice device = new RecordingDevice(events, Integer.MAX_VALUE);
        List<Long> hashing = new ArrayList<>();
        int hashed = ShardFragment.splitByChunk(rows(10_000), 3_000, device, List.of(0), 4, hashing::add, parts -> {
            events.add("send " + parts.rows(0));
            parts.close();
        });
        assertEquals(10_000, hashed);
        assertEquals(List.of("split 0+3000", "send 3000", "split 3000+3000", "send 3000", "split 6000+3000", "send 3000",
                "split 9000+1000", "send 1000"), events);
        assertEquals(4, hashing.size(), "each chunk's hashing time counted");
        assertEquals(0, device.open, "every chunk's parts closed");
    }

    @Test
    void aChunkTheDeviceHasNoRoomForLeavesTheRestToTheHost() {
        List<String> events = new ArrayList<>();
        RecordingDevice device = new RecordingDevice(events, 2);
        int hashed = ShardFragment.splitByChunk(rows(10_000), 3_000, device, List.of(0), 4, nanos -> { }, parts -> {
            events.add("send " + parts.rows(0));
            parts.close();
        });
        assertEquals(6_000, hashed, "rows [6000, 10000) go through the host");
        assertEquals(List.of("split 0+3000", "send 3000", "split 3000+3000", "send 3000", "split 6000+3000"), events);
    }

    @Test
    void noRowsNoChunk() {
        List<String> events = new ArrayList<>();
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
    private static final class RecordingDevice implements DeviceExchange {
        private final List<String> events;
        private int room;
        int open;

        RecordingDevice(List<String> events, int room) {
            this.events = events;
            this.room = room;
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
            if (room-- <= 0) {
                return Optional.empty();
            }
            open++;
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
                    open--;
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
