package io.warpdb.exec.gpu.decode;

import java.util.Map;

/**
 * One task of a decode kernel: one stream of one chunk (decode.cu's {@code Task}; which fields a
 * kernel reads is documented there).
 *
 * @param aux run ends, or the validity bytes a store zeroes NULL rows by; null when unused
 */
record DecodeTask(StreamRef values, StreamRef entries, Location out, Location aux, long scalar, int count, int outWidth,
        int flags) {
    /** Longs per task in the table (96 bytes). */
    static final int LONGS = 12;
    /** Rows a block of a flat kernel handles: decode.cu's TILE (256 threads x 8). */
    static final int TILE = 2048;
    /** decode_store: rows whose validity byte is 0 get value 0. */
    static final int ZERO_NULL_ROWS = 1;
    /** decode_validity's flags: how the chunk's validity is stored. */
    static final int ALL_VALID = 0;
    static final int ALL_NULL = 1;
    static final int BITMAP = 2;

    DecodeTask {
        if (count <= 0) {
            throw new IllegalArgumentException("a decode task needs work: " + count + " values");
        }
    }

    static DecodeTask of(StreamRef values, Location out, int count, int outWidth) {
        return new DecodeTask(values, StreamRef.NONE, out, null, 0, count, outWidth, 0);
    }

    int blocks() {
        return (count + TILE - 1) / TILE;
    }

    void write(long[] table, int task, int firstBlock, Map<Location.Region, Long> bases) {
        int at = task * LONGS;
        values.write(table, at, bases);
        entries.write(table, at + 3, bases);
        table[at + 6] = out == null ? 0 : out.address(bases);
        table[at + 7] = aux == null ? 0 : aux.address(bases);
        table[at + 8] = scalar;
        table[at + 9] = (count & 0xffffffffL) | (long) outWidth << 32;
        table[at + 10] = (flags & 0xffffffffL) | (long) firstBlock << 32;
        table[at + 11] = 0;
    }
}
