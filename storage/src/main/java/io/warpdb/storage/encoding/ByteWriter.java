package io.warpdb.storage.encoding;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A growable little-endian byte sink: the encoders' output. */
final class ByteWriter {
    private byte[] bytes;
    /** {@code bytes} as little-endian, re-made whenever {@code bytes} grows. */
    private ByteBuffer view;
    private int size;

    ByteWriter() {
        this(256);
    }

    /** A writer that grows only past {@code expectedBytes}: growing copies everything written so far. */
    ByteWriter(int expectedBytes) {
        bytes = new byte[Math.max(16, expectedBytes)];
        view = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    int size() {
        return size;
    }

    /** Drops everything written after the first {@code newSize} bytes. */
    void truncate(int newSize) {
        size = newSize;
    }

    void putByte(int value) {
        ensureRoom(1);
        bytes[size++] = (byte) value;
    }

    void putInt(int value) {
        ensureRoom(4);
        view.putInt(size, value);
        size += 4;
    }

    void putLong(long value) {
        ensureRoom(8);
        view.putLong(size, value);
        size += 8;
    }

    void putLongs(long[] values, int count) {
        ensureRoom((long) count * Long.BYTES);
        view.position(size);
        view.asLongBuffer().put(values, 0, count);
        size += count * Long.BYTES;
    }

    void putBytes(byte[] values) {
        putBytes(values, 0, values.length);
    }

    void putBytes(byte[] values, int from, int length) {
        ensureRoom(length);
        System.arraycopy(values, from, bytes, size, length);
        size += length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensureRoom(long extra) {
        long needed = size + extra;
        if (needed > bytes.length) {
            if (needed > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("encoded chunk exceeds 2 GiB");
            }
            bytes = Arrays.copyOf(bytes, (int) Math.max(needed, Math.min(Integer.MAX_VALUE - 8L, 2L * bytes.length)));
            view = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
    }
}
