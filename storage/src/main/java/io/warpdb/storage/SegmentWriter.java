package io.warpdb.storage;

import io.warpdb.storage.encoding.EncodedChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a segment's file: the magic {@code WARPSEG1}, then each column chunk as the
 * codec encoded it, in column order. The chunk directory (offsets, lengths, CRC32Cs,
 * encodings) and the zone maps go into the manifest, which is what readers consult.
 */
final class SegmentWriter {
    static final byte[] MAGIC = "WARPSEG1".getBytes(StandardCharsets.US_ASCII);

    private SegmentWriter() {
    }

    /** Writes and syncs the file of {@code segment}; returns where each column chunk went. */
    static List<ChunkLocation> write(DataDirectory dir, BuiltSegment segment) throws IOException {
        List<ByteBuffer> parts = new ArrayList<>(segment.chunks().size() + 1);
        List<ChunkLocation> chunks = new ArrayList<>(segment.chunks().size());
        parts.add(ByteBuffer.wrap(MAGIC));
        long offset = MAGIC.length;
        for (EncodedChunk encoded : segment.chunks()) {
            ByteBuffer bytes = ByteBuffer.wrap(encoded.bytes());
            chunks.add(new ChunkLocation(offset, bytes.remaining(), Checksums.crc32c(bytes), encoded.description()));
            parts.add(bytes);
            offset += bytes.remaining();
        }
        dir.writeNew(dir.segmentFile(segment.id()), parts);
        return chunks;
    }
}
