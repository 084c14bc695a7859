package io.warpdb.storage.encoding;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Reads what a {@link ByteWriter} wrote, from any byte buffer (heap, direct or mapped). */
final class ByteReader {
    private final ByteBuffer buffer;

    /** Reads from the remaining bytes of {@code encoded}, leaving its position untouched. */
    ByteReader(ByteBuffer encoded) {
        this.buffer = encoded.slice().order(ByteOrder.LITTLE_ENDIAN);
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

    /** Bulk-reads {@code count} longs into {@code target[0..count)}. */
    void readLongs(long[] target, int count) {
        buffer.asLongBuffer().get(target, 0, count);
        skip((long) count * Long.BYTES);
    }

    /** The next {@code length} bytes as a buffer of their own; this reader moves past them. */
    ByteBuffer readSlice(long length) {
        ByteBuffer slice = buffer.slice(buffer.position(), Math.toIntExact(length));
        skip(length);
        return slice;
    }

    private void skip(long length) {
        buffer.position(Math.toIntExact(buffer.position() + length));
    }
}
