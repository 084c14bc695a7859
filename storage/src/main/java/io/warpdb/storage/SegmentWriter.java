package io.warpdb.storage;

import io.warpdb.core.types.Schema;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.EncodedChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a segment into its file: the magic {@code WARPSEG1}, then each column chunk as the
 * codec encoded it, in column order. The chunk directory (offsets, lengths, CRC32Cs,
 * encodings) and the zone maps go into the manifest, which is what readers consult.
 */
final class SegmentWriter {
    static final byte[] MAGIC = "WARPSEG1".getBytes(StandardCharsets.US_ASCII);

    private SegmentWriter() {
    }

    /** Writes and syncs the file of {@code segment}; returns where each column chunk went. */
    static List<ChunkLocation> write(DataDirectory dir, MemorySegment segment, Schema schema) throws IOException {
        List<ByteBuffer> parts = new ArrayList<>(schema.size() + 1);
        List<ChunkLocation> chunks = new ArrayList<>(schema.size());
        parts.add(ByteBuffer.wrap(MAGIC));
        long offset = MAGIC.length;
        for (int c = 0; c < schema.size(); c++) {
            EncodedChunk encoded = ChunkCodec.encode(segment.vector(c), schema.type(c), segment.dictionary(c), segment.rowCount());
            ByteBuffer bytes = ByteBuffer.wrap(encoded.bytes());
            chunks.add(new ChunkLocation(offset, bytes.remaining(), Checksums.crc32c(bytes), encoded.description()));
            parts.add(bytes);
            offset += bytes.remaining();
        }
        dir.writeNew(dir.segmentFile(segment.id()), parts);
        return chunks;
    }
}
