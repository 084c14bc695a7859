package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.IntegerStream.BitPacked;
import java.util.Arrays;

/**
 * The last layer of every cascade: the minimum is stored as the reference, and each value
 * minus the reference is packed in the fewest bits that hold the largest one (0..64). The
 * subtraction wraps and the offsets are read as unsigned, so any range up to
 * Long.MIN_VALUE..Long.MAX_VALUE (64 bits) is exact. A constant stream packs into 0 bits.
 *
 * <p>Wire: nothing for an empty stream, else {@code i64 reference, u8 bitWidth,
 * ceil(count * bitWidth / 64) little-endian words}; value i occupies bits [i*w, (i+1)*w) of the
 * words, least significant bit first.
 */
final class FrameOfReferenceBitPack implements IntegerEncoding {
    static final FrameOfReferenceBitPack INSTANCE = new FrameOfReferenceBitPack();

    private static final int HEADER_BYTES = Long.BYTES + 1;

    private FrameOfReferenceBitPack() {
    }

    @Override
    public Sizer sizer() {
        return new Sizer() {
            private int count;
            private long min = Long.MAX_VALUE;
            private long max = Long.MIN_VALUE;

            @Override
            public void accept(long value) {
                count++;
                min = Math.min(min, value);
                max = Math.max(max, value);
            }

            @Override
            public long bytes() {
                return FrameOfReferenceBitPack.bytes(count, min, max);
            }
        };
    }

    /** Bit packing alone needs no pass per value: the array's minimum and maximum say it all. */
    @Override
    public long analyze(long[] values) {
        return values.length == 0 ? 0 : bytes(values.length, min(values), max(values));
    }

    private static long bytes(int count, long min, long max) {
        return count == 0 ? 0 : HEADER_BYTES + (long) wordCount(count, bitWidth(min, max)) * Long.BYTES;
    }

    @Override
    public int encode(long[] values, ByteWriter out) {
        if (values.length == 0) {
            return 0;
        }
        long reference = min(values);
        int width = bitWidth(reference, max(values));
        out.putLong(reference);
        out.putByte(width);
        if (width == 0) {
            return 0;
        }
        // Straight into the output a word at a time, no packed array to allocate and copy per stream.
        long word = 0;
        int filled = 0; // bits of word in use
        for (long value : values) {
            long offset = value - reference;
            word |= offset << filled;
            filled += width;
            if (filled >= Long.SIZE) {
                out.putLong(word);
                filled -= Long.SIZE;
                // The bits of offset that did not fit (none when it ended the word exactly).
                word = filled == 0 ? 0 : offset >>> (width - filled);
            }
        }
        if (filled > 0) {
            out.putLong(word);
        }
        return width;
    }

    @Override
    public BitPacked read(ByteReader in, int count) {
        return readPacked(in, count);
    }

    /** Describes a bit-packed stream of {@code count} values (the run lengths of RLE and validity are always one). */
    static BitPacked readPacked(ByteReader in, int count) {
        if (count == 0) {
            return BitPacked.EMPTY;
        }
        long reference = in.readLong();
        int width = in.readByte();
        if (width < 0 || width > 64) {
            throw new IllegalArgumentException("corrupt encoded chunk: bit width " + width);
        }
        return new BitPacked(count, reference, width, in.readChunkSlice(wordCount(count, width) * (long) Long.BYTES));
    }

    /** Decodes {@code packed} into {@code target[offset..offset+count)}. */
    static void unpack(BitPacked packed, long[] target, int offset) {
        int count = packed.count();
        if (count == 0) {
            return;
        }
        long reference = packed.reference();
        int width = packed.width();
        if (width == 0) {
            Arrays.fill(target, offset, offset + count, reference);
            return;
        }
        int words = wordCount(count, width);
        // One spare word, so that a value may always spill into word + 1 without a branch.
        long[] words64 = new long[words + 1];
        packed.words().view().asLongBuffer().get(words64, 0, words);
        long mask = width == 64 ? -1L : (1L << width) - 1;
        long bit = 0;
        for (int i = offset, end = offset + count; i < end; i++) {
            int word = (int) (bit >>> 6);
            int shift = (int) bit & 63;
            long low = words64[word] >>> shift;
            // Mirror of the spill in encode: (x << 1) << (63 - shift) is x << (64 - shift), yet 0 when shift == 0.
            long high = (words64[word + 1] << 1) << (63 - shift);
            target[i] = reference + ((low | high) & mask);
            bit += width;
        }
    }

    /** Bits needed for the unsigned offset max - min (which wraps for ranges wider than 2^63). */
    static int bitWidth(long min, long max) {
        return Long.SIZE - Long.numberOfLeadingZeros(max - min);
    }

    private static int wordCount(int count, int width) {
        return Math.toIntExact(((long) count * width + 63) >>> 6);
    }

    private static long min(long[] values) {
        long min = Long.MAX_VALUE;
        for (long value : values) {
            min = Math.min(min, value);
        }
        return min;
    }

    private static long max(long[] values) {
        long max = Long.MIN_VALUE;
        for (long value : values) {
            max = Math.max(max, value);
        }
        return max;
    }
}
