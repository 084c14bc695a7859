package io.warpdb.core.batch;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Strings kept as their UTF-8 bytes, back to back: entry {@code i} is
 * {@code bytes[offset(i)..offset(i + 1))}. What bulk loads build instead of a String per value;
 * the bytes must be valid UTF-8. Immutable once built.
 */
public final class Utf8Strings {
    private final byte[] bytes;
    private final int[] offsets;
    private final int size;

    private Utf8Strings(byte[] bytes, int[] offsets, int size) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.size = size;
    }

    /**
     * The entries whose bytes lie back to back in {@code bytes}: entry {@code i} from {@code
     * offsets[i]} to {@code offsets[i + 1]} ({@code offsets} has one more element than there are
     * entries). Both arrays are taken as they are, not copied.
     */
    public static Utf8Strings of(byte[] bytes, int[] offsets) {
        if (offsets.length == 0 || offsets[offsets.length - 1] > bytes.length) {
            throw new IllegalArgumentException("offsets must end within the " + bytes.length + " bytes");
        }
        return new Utf8Strings(bytes, offsets, offsets.length - 1);
    }

    public int size() {
        return size;
    }

    /** The array holding every entry's bytes; read only. */
    public byte[] bytes() {
        return bytes;
    }

    public int offset(int i) {
        return offsets[i];
    }

    public int length(int i) {
        return offsets[i + 1] - offsets[i];
    }

    public String string(int i) {
        return new String(bytes, offsets[i], length(i), StandardCharsets.UTF_8);
    }

    /**
     * Compares two entries as {@link String#compareTo} compares them as Strings, without decoding.
     * UTF-8 bytes compared unsigned order code points, and UTF-16 code units order them the same
     * except that a supplementary character (4-byte sequence) sorts before U+E000..U+FFFF (lead
     * bytes 0xEE, 0xEF) in UTF-16.
     */
    public int compare(int i, int j) {
        int a = offsets[i];
        int b = offsets[j];
        int mismatch = Arrays.mismatch(bytes, a, offsets[i + 1], bytes, b, offsets[j + 1]);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch == length(i) || mismatch == length(j)) {
            return length(i) - length(j);
        }
        int x = bytes[a + mismatch] & 0xFF;
        int y = bytes[b + mismatch] & 0xFF;
        if (x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0)) {
            return x >= 0xF0 ? -1 : 1; // a surrogate pair (D800..DFFF) sorts before U+E000..U+FFFF
        }
        return x - y;
    }

    /** Appends entries, each one's bytes copied in. */
    public static final class Builder {
        private byte[] bytes;
        private int[] offsets;
        private int size;

        public Builder(int expectedEntries, int expectedBytes) {
            bytes = new byte[Math.max(16, expectedBytes)];
            offsets = new int[Math.max(16, expectedEntries) + 1];
        }

        public int size() {
            return size;
        }

        /** Appends {@code src[from..to)}; returns its index. */
        public int add(byte[] src, int from, int to) {
            int length = to - from;
            int at = offsets[size];
            if (at + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(2L * bytes.length, (long) at + length)));
            }
            System.arraycopy(src, from, bytes, at, length);
            if (size + 2 > offsets.length) {
                offsets = Arrays.copyOf(offsets, 2 * offsets.length);
            }
            offsets[++size] = at + length;
            return size - 1;
        }

        /** Bytes appended so far, entries included. */
        public int byteSize() {
            return offsets[size];
        }

        public byte[] bytes() {
            return bytes;
        }

        public int offset(int i) {
            return offsets[i];
        }

        /** Drops every entry, keeping the arrays: the strings {@link #build} returned before become invalid. */
        public void clear() {
            size = 0;
        }

        /** The entries added; the builder must not be used afterwards, unless {@link #clear}ed once they are not. */
        public Utf8Strings build() {
            return new Utf8Strings(bytes, offsets, size);
        }
    }
}
