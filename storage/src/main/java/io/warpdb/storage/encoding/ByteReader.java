package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.ChunkSlice;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Reads what a {@link ByteWriter} wrote, from any byte buffer (heap, direct or mapped). */
final class ByteReader {
    /** The bytes read, from the first; {@link ChunkSlice}s point into it. */
    private final ByteBuffer chunk;
    private final ByteBuffer buffer;

    /** Reads from the remaining bytes of {@code encoded}, leaving its position untouched. */
    ByteReader(ByteBuffer encoded) {
        this.chunk = encoded.slice().asReadOnlyBuffer();
        this.buffer = chunk.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    byte readByte() {
        return buffer.get();
    }

    int readInt() {
        return buffer.getInt();
    }

    long readLong() {
        return buffer.getLong();
    }

    /** An int written as a count or length: never negative in a well-formed chunk. */
    int readCount() {
        int count = buffer.getInt();
        if (count < 0) {
            throw new IllegalArgumentException("corrupt encoded chunk: negative count " + count);
        }
        return count;
    }

    /** The next {@code length} bytes as a buffer of their own; this reader moves past them. */
    ByteBuffer readSlice(long length) {
        ByteBuffer slice = buffer.slice(buffer.position(), Math.toIntExact(length));
        skip(length);
        return slice;
    }

    /** The next {@code length} bytes as a slice of the chunk; this reader moves past them. */
    ChunkSlice readChunkSlice(long length) {
        ChunkSlice slice = new ChunkSlice(chunk, buffer.position(), Math.toIntExact(length));
        skip(length);
        return slice;
    }

    /** Where the next read starts, from the first byte. */
    int position() {
        return buffer.position();
    }

    /** Moves the next read to {@code position} (from the first byte). */
    void position(int position) {
        buffer.position(position);
    }

    private void skip(long length) {
        buffer.position(Math.toIntExact(buffer.position() + length));
    }
}
