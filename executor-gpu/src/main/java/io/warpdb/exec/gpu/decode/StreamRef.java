package io.warpdb.exec.gpu.decode;

import java.util.Map;

/**
 * How a kernel reads value i of a stream (decode.cu's {@code Stream}): bit-packed words unpacked
 * where they are used, or values already decoded.
 *
 * @param location null for {@link Kind#ALTERNATING} and {@link Kind#NONE}
 */
record StreamRef(Kind kind, Location location, long reference, int width) {
    /** decode.cu's StreamKind, in its order. */
    enum Kind {
        PACKED, LONGS, ALTERNATING, PLAIN_BITS, PLAIN_INT32, PLAIN_INT64, INTS, NONE
    }

    static final StreamRef NONE = new StreamRef(Kind.NONE, null, 0, 0);
    /** 1, 0, 1, 0, ...: the values of validity runs, which start with a valid one. */
    static final StreamRef ALTERNATING = new StreamRef(Kind.ALTERNATING, null, 0, 0);
    /** Every value 0 (a bit-packed stream of width 0 needs no words). */
    static final StreamRef ZEROS = new StreamRef(Kind.PACKED, null, 0, 0);

    static StreamRef packed(Location words, long reference, int width) {
        return new StreamRef(Kind.PACKED, words, reference, width);
    }

    static StreamRef of(Kind kind, Location location) {
        return new StreamRef(kind, location, 0, 0);
    }

    /** Writes the descriptor as decode.cu's {@code Stream}: address, reference, width | kind << 32. */
    void write(long[] table, int at, Map<Location.Region, Long> bases) {
        table[at] = location == null ? 0 : location.address(bases);
        table[at + 1] = reference;
        table[at + 2] = (width & 0xffffffffL) | (long) kind.ordinal() << 32;
    }
}
