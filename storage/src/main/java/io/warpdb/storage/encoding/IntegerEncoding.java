package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.IntegerStream;

/**
 * One layer of a {@link Cascade}: encodes a stream of 64-bit integers, handing what it derives
 * (run values, differences) to the layer below it. The integer form is shared by every column
 * type (see {@link PhysicalLayout}), so each layer is written once. Reading parses only the
 * headers into an {@link IntegerStream} description; {@link Cascade#decode(IntegerStream, long[], int)}
 * decodes that on the host, executors elsewhere.
 */
interface IntegerEncoding {
    /** Exactly the number of bytes {@link #encode} would write for {@code values}. */
    default long analyze(long[] values) {
        Sizer sizer = sizer();
        for (long value : values) {
            sizer.accept(value);
        }
        return sizer.bytes();
    }

    /**
     * Counts what {@link #encode} would write for values given one at a time, keeping none: the
     * selector sizes every candidate cascade on its sample, and arrays of run values, run lengths
     * and differences per candidate and layer were most of the encoders' garbage.
     */
    Sizer sizer();

    /** The running size of one stream; {@link #bytes} once the last value is in, after which no more come. */
    interface Sizer {
        void accept(long value);

        long bytes();
    }

    /**
     * Writes {@code values}. Their count is not written: the reader always knows it.
     *
     * @return the bit width the values finally got packed in, for descriptions such as "bitpack(3)"
     */
    int encode(long[] values, ByteWriter out);

    /** Describes the {@code count} values written by {@link #encode}, reading past them. */
    IntegerStream read(ByteReader in, int count);

    /** Reads {@code count} values written by {@link #encode} into {@code target[offset..offset+count)}. */
    default void decode(ByteReader in, long[] target, int offset, int count) {
        Cascade.decode(read(in, count), target, offset);
    }
}
