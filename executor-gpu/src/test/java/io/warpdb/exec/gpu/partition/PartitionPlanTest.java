package io.warpdb.exec.gpu.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The out-of-core planning arithmetic, without a device. */
class PartitionPlanTest {
    private static final long MIB = 1 << 20;

    @Test
    void inputsFourTimesTheBudgetGiveEnoughPartitionsForAPairPerStream() {
        long budget = 64 * MIB;
        PartitionPlan plan = PartitionPlan.of(128 * MIB, 8_000_000, 128 * MIB, 8_000_000, budget);
        assertEquals(budget / 3, plan.streamBudget());
        // A pair of partitions, with the in-core join's working memory, fits one stream's share.
        long pair = 256 * MIB / plan.partitions();
        assertTrue(PartitionPlan.fitsInCore(pair, plan.streamBudget()), plan.toString());
        // ... and half as many partitions would not: the fan-out is the smallest power of two that fits.
        assertFalse(PartitionPlan.fitsInCore(2 * pair, plan.streamBudget()), plan.toString());
        assertEquals(64, plan.partitions());
        assertEquals(1, plan.passes());
    }

    @Test
    void largeFanOutsTakeSeveralPassesAndStopAtTheFirstLevelLimit() {
        PartitionPlan plan = PartitionPlan.of(40L << 30, 1L << 31, 40L << 30, 1L << 31, 16 * MIB);
        assertEquals(PartitionPlan.MAX_BITS, plan.bits());
        assertEquals(2, plan.passes());
        PartitionPlan nine = PartitionPlan.of(300 * MIB, 1, 0, 0, 6 * MIB);
        assertEquals(10, nine.bits(), "300 MiB x 4 over 2 MiB per stream: 600 -> 1024 partitions");
        assertEquals(2, nine.passes());
    }

    @Test
    void inputsThatAlmostFitStillGetTwoPartitions() {
        PartitionPlan plan = PartitionPlan.of(1, 1, 0, 0, 3 * MIB);
        assertEquals(2, plan.partitions());
        assertEquals(1, plan.passes());
    }

    @Test
    void chunksFillHalfAStreamShareWithTheirCopyAndArrays() {
        long stream = 8 * MIB;
        long rows = PartitionPlan.chunkRows(100 * 20L, 100, stream);
        long perRow = 2 * 20 + PartitionPlan.PARTITION_ROW_OVERHEAD;
        assertEquals((stream / 2 - PartitionPlan.CHUNK_FIXED_BYTES) / perRow, rows);
        assertTrue(rows * perRow + PartitionPlan.CHUNK_FIXED_BYTES <= stream / 2);
        assertEquals(1, PartitionPlan.chunkRows(1L << 40, 1, stream), "a row wider than the share still makes a chunk");
        assertTrue(PartitionPlan.chunkRows(0, 0, stream) > 0, "an empty input");
        PartitionPlan plan = PartitionPlan.of(100 * MIB, 1_000_000, 10 * MIB, 1_000_000, 30 * MIB);
        assertTrue(plan.leftChunkRows() < plan.rightChunkRows(), "wider rows, fewer per chunk: " + plan);
    }

    @Test
    void budgetsTooSmallToSplitAmongTheStreamsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> PartitionPlan.of(MIB, 10, MIB, 10, 3 * PartitionPlan.MIN_STREAM_BUDGET - 3));
        PartitionPlan.of(MIB, 10, MIB, 10, 3 * PartitionPlan.MIN_STREAM_BUDGET);
    }

    @Test
    void hotKeyBlocksKeepInputsAndTheirCrossProductWithinAJoinsPart() {
        long stream = 12 * MIB;
        long part = stream / PartitionPlan.WORKING_FACTOR;
        PartitionPlan.Blocks both = PartitionPlan.hotKeyBlocks(1_000_000, 1_000_000, 20, 30, 50, stream);
        assertTrue(both.leftRows() * 20 + both.rightRows() * 30 <= part, both.toString());
        assertTrue(both.leftRows() * both.rightRows() * (50 + 8) <= part, both.toString());
        assertTrue(both.leftRows() >= 1 && both.rightRows() >= 1);
        // One hot row on the right: the left block is bounded by the inputs, not by a cross product.
        PartitionPlan.Blocks one = PartitionPlan.hotKeyBlocks(1_000_000, 1, 20, 30, 50, stream);
        assertEquals(1, one.rightRows());
        assertEquals(Math.min((part - 30) / 20, part / 58), one.leftRows());
        // Small sides are taken whole.
        assertEquals(new PartitionPlan.Blocks(7, 3), PartitionPlan.hotKeyBlocks(7, 3, 20, 30, 50, stream));
    }
}
