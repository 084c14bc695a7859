package io.warpdb.core.data.encoded;

/**
 * A stream of {@link #count()} 64-bit integers as stored: frame-of-reference bit-packed, or an RLE
 * or Delta layer over further streams. Every arithmetic step of decoding wraps (two's complement),
 * so every long is exact.
 */
public sealed interface IntegerStream permits IntegerStream.BitPacked, IntegerStream.RunLengths, IntegerStream.Deltas {
    int count();

    /**
     * Value i is {@code reference + bits [i*width, (i+1)*width) of words}, the offset read as
     * unsigned, the words little-endian, bits least significant first. Width 0 (a constant
     * stream) has no words.
     *
     * @param words {@code ceil(count * width / 64)} 64-bit words; not aligned to 8 bytes in the chunk
     */
    record BitPacked(int count, long reference, int width, ChunkSlice words) implements IntegerStream {
        public static final BitPacked EMPTY = new BitPacked(0, 0, 0, ChunkSlice.EMPTY);

        public BitPacked {
            if (count < 0 || width < 0 || width > 64 || words.length() != wordCount(count, width) * Long.BYTES) {
                throw new IllegalArgumentException("corrupt encoded chunk: " + count + " values of " + width
                        + " bits in " + words.length() + " bytes");
            }
        }

        public static long wordCount(int count, int width) {
            return ((long) count * width + 63) >>> 6;
        }
    }

    /**
     * Runs: {@code runValues[j]} repeated {@code runLengths[j]} times, the lengths positive and
     * adding up to {@code count}.
     */
    record RunLengths(int count, IntegerStream runValues, BitPacked runLengths) implements IntegerStream {
        public RunLengths {
            if (runValues.count() != runLengths.count() || runValues.count() > count) {
                throw new IllegalArgumentException("corrupt encoded chunk: " + runValues.count() + " run values, "
                        + runLengths.count() + " run lengths for " + count + " values");
            }
        }

        public int runCount() {
            return runLengths.count();
        }
    }

    /**
     * Value 0 is {@code first}, value i the sum of {@code first} and differences [0, i). An empty
     * stream has no differences (and {@code first} 0); otherwise there are {@code count - 1}.
     */
    record Deltas(int count, long first, IntegerStream differences) implements IntegerStream {
        public static final Deltas EMPTY = new Deltas(0, 0, BitPacked.EMPTY);

        public Deltas {
            if (differences.count() != Math.max(count - 1, 0)) {
                throw new IllegalArgumentException("corrupt encoded chunk: " + differences.count() + " differences for " + count + " values");
            }
        }
    }
}
