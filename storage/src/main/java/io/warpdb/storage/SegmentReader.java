package io.warpdb.storage;

import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.DecodedColumn;
import io.warpdb.storage.encoding.StringEntriesSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;

/** Reads one column chunk of a segment file, verifies its checksum and decodes it into Arrow (or describes it). */
final class SegmentReader {
    private SegmentReader() {
    }

    /**
     * @throws CorruptDataException when the file is missing, too short, fails the checksum or
     *                              does not decode
     */
    static DecodedColumn read(DataDirectory dir, long segment, String table, ChunkLocation chunk, DataType type,
            StringEntriesSource strings, BufferAllocator allocator) {
        ByteBuffer bytes = readVerified(dir, segment, table, chunk);
        try {
            return ChunkCodec.decode(bytes, type, "", allocator, strings);
        } catch (RuntimeException e) {
            throw undecodable(dir, segment, table, chunk, type, e);
        }
    }

    /**
     * The chunk described, its buffers slices of the bytes read (see {@link ChunkCodec#describe}).
     *
     * @throws CorruptDataException as {@link #read} does
     */
    static EncodedColumnChunk describe(DataDirectory dir, long segment, String table, ChunkLocation chunk, DataType type,
            StringEntriesSource strings) {
        ByteBuffer bytes = readVerified(dir, segment, table, chunk);
        try {
            return ChunkCodec.describe(bytes, type, strings);
        } catch (RuntimeException e) {
            throw undecodable(dir, segment, table, chunk, type, e);
        }
    }

    private static ByteBuffer readVerified(DataDirectory dir, long segment, String table, ChunkLocation chunk) {
        Path file = dir.segmentFile(segment);
        ByteBuffer bytes;
        try {
            bytes = dir.read(file, chunk.offset(), chunk.length());
        } catch (IOException e) {
            throw new CorruptDataException(file, CorruptDataException.ofTable(table), "cannot read the column chunk at offset "
                    + chunk.offset() + ": " + e, e);
        }
        if (Checksums.crc32c(bytes) != chunk.crc32c()) {
            throw new CorruptDataException(file, CorruptDataException.ofTable(table),
                    "checksum mismatch in the column chunk at offset " + chunk.offset(), null);
        }
        return bytes;
    }

    /** The bytes are the ones written, so a failure to decode them is a codec or format-version mismatch. */
    private static CorruptDataException undecodable(DataDirectory dir, long segment, String table, ChunkLocation chunk,
            DataType type, RuntimeException e) {
        return new CorruptDataException(dir.segmentFile(segment), CorruptDataException.ofTable(table),
                "cannot decode the column chunk at offset " + chunk.offset() + " as " + type + ": " + e.getMessage(), e);
    }
}
