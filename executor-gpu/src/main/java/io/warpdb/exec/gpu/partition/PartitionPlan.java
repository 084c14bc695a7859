package io.warpdb.exec.gpu.partition;

/**
 * How an operator whose inputs exceed the device budget partitions them (seed 002 section 3.3):
 * the budget is split among {@link #STREAMS} streams (copy in, compute and copy out of different
 * chunks overlap, each in its own share); each input is cut into chunks that one stream partitions
 * at a time; the fan-out, a power of two reached in radix passes of at most {@link #DIGIT_BITS}
 * bits, makes a pair of partitions (with the in-core operator's working memory) fit one share.
 * Pure arithmetic on sizes, so that it is tested without a device.
 *
 * @param bits partition id bits (fan-out 2^bits)
 * @param passes radix passes over each chunk
 * @param streamBudget device bytes each stream may hold
 * @param leftChunkRows rows of the left (first) input per partitioning chunk
 * @param rightChunkRows rows of the right (second) input per partitioning chunk
 */
public record PartitionPlan(int bits, int passes, long streamBudget, long leftChunkRows, long rightChunkRows) {
    /** Streams of the pipeline (seed 002 section 3.2.4: copy in, compute, copy out overlapped). */
    public static final int STREAMS = 3;
    /** Bits of one radix pass: 256 buckets, whose counters fit a block's shared memory per warp. */
    public static final int DIGIT_BITS = 8;
    /** Partition id bits of the first partitioning; skewed partitions are split on further bits. */
    public static final int MAX_BITS = 16;
    /** Bits of the key hash: how far skewed partitions can be split. */
    public static final int HASH_BITS = 32;
    /**
     * Device bytes an in-core operator needs per byte of its inputs (inputs, hash table or sorted
     * keys, row id pairs, gathered output), a rough bound that run-time failures correct.
     */
    public static final int WORKING_FACTOR = 4;
    /**
     * Device bytes one partitioning chunk takes per row beyond its row bytes twice (the chunk and
     * its reordered copy): the hash, two row orders, and slack for the counts.
     */
    static final int PARTITION_ROW_OVERHEAD = 16;
    /**
     * Device bytes a chunk's small blocks take whatever its rows (key descriptors, counters, and
     * every block rounded up to the pool's alignment).
     */
    static final long CHUNK_FIXED_BYTES = 64 << 10;
    /** The smallest share of a stream that partitioning can work in. */
    public static final long MIN_STREAM_BUDGET = 4 * CHUNK_FIXED_BYTES;

    /** Whether an in-core operator over {@code inputBytes} of input may run in {@code budget}. */
    public static boolean fitsInCore(long inputBytes, long budget) {
        return inputBytes <= budget / WORKING_FACTOR;
    }

    /**
     * The plan for inputs of these sizes (bytes as {@link HostTable#deviceBytes()}, rows) in a
     * device budget: at least 2 partitions, at most 2^{@link #MAX_BITS}.
     */
    public static PartitionPlan of(long leftBytes, long leftRows, long rightBytes, long rightRows, long budget) {
        long streamBudget = budget / STREAMS;
        if (streamBudget < MIN_STREAM_BUDGET) {
            throw new IllegalArgumentException("a device budget of " + budget + " bytes leaves less than "
                    + MIN_STREAM_BUDGET + " to each of " + STREAMS + " streams");
        }
        long needed = ceilDiv(Math.max(1, leftBytes + rightBytes) * WORKING_FACTOR, streamBudget);
        int bits = Math.min(MAX_BITS, Math.max(1, 64 - Long.numberOfLeadingZeros(needed - 1)));
        int passes = (bits + DIGIT_BITS - 1) / DIGIT_BITS;
        return new PartitionPlan(bits, passes, streamBudget, chunkRows(leftBytes, leftRows, streamBudget),
                chunkRows(rightBytes, rightRows, streamBudget));
    }

    /**
     * Rows per chunk such that a chunk, its reordered copy, the partitioning's arrays and its
     * small blocks fill half a stream's share (the other half is slack for the pool's rounding).
     */
    public static long chunkRows(long bytes, long rows, long streamBudget) {
        long rowBytes = rows == 0 ? 1 : Math.max(1, ceilDiv(bytes, rows));
        long perRow = 2 * rowBytes + PARTITION_ROW_OVERHEAD;
        return Math.max(1, Math.min(Integer.MAX_VALUE, (streamBudget / 2 - CHUNK_FIXED_BYTES) / perRow));
    }

    /** Rows per chunk such that an in-core operator over a chunk fits a stream's share ({@link #fitsInCore}). */
    public static long inCoreRows(long bytes, long rows, long streamBudget) {
        long rowBytes = rows == 0 ? 1 : Math.max(1, ceilDiv(bytes, rows));
        return Math.max(1, Math.min(Integer.MAX_VALUE, streamBudget / WORKING_FACTOR / rowBytes));
    }

    /** Rows per block of each side of a hot-key partition pair (see {@link #hotKeyBlocks}). */
    public record Blocks(long leftRows, long rightRows) {
    }

    /**
     * Block sizes for a partition pair whose rows all hash alike (one hot key, as a rule), so
     * that every row of a left block may pair with every row of a right block: a right block
     * takes at most half of an in-core join's part of the stream's share (as input), and the left
     * block what is left, and no more rows than keep the product of the two blocks' rows (the
     * output, its columns and the pair of row ids that gathers it) within that part too.
     */
    public static Blocks hotKeyBlocks(long leftRows, long rightRows, long leftRowBytes, long rightRowBytes, long outputRowBytes,
            long streamBudget) {
        long part = streamBudget / WORKING_FACTOR;
        long right = Math.max(1, Math.min(rightRows, part / 2 / rightRowBytes));
        long byInputs = (part - right * rightRowBytes) / leftRowBytes;
        long byOutput = part / (right * (outputRowBytes + 2L * Integer.BYTES));
        long left = Math.max(1, Math.min(leftRows, Math.min(byInputs, byOutput)));
        return new Blocks(left, right);
    }

    public int partitions() {
        return 1 << bits;
    }

    public static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
