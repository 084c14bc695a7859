package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.exec.gpu.sort.KeyColumn.KeyRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The group-by tuning rules and the key-packing arithmetic (no GPU needed). */
class GroupByTuningTest {
    /** An H100: 132 SMs, 50 MiB of L2. */
    private static final GroupByTuning.Device H100 = new GroupByTuning.Device(132, 50L << 20);

    private static KeyRange range(long min, long max, long nulls) {
        return new KeyRange(min, max, nulls, 10);
    }

    @Test
    void keysPackLowFirstWithNullAsOnePastTheLargestValue() {
        KeyPacking p = KeyPacking.of(List.of(range(10, 13, 0), range(0, 1, 5)), 1000);
        assertArrayEquals(new long[] {10, 0}, p.mins());
        assertArrayEquals(new long[] {0, 2}, p.shifts());
        assertArrayEquals(new long[] {4, 2}, p.nullCodes());
        assertEquals(4, p.bits());
        assertEquals(4 * 3, p.groupBound());
    }

    @Test
    void allNullKeyTakesNoBits() {
        KeyPacking p = KeyPacking.of(List.of(new KeyRange(-1L, 0, 7, 0)), 7);
        assertEquals(0, p.bits());
        assertEquals(1, p.groupBound());
    }

    @Test
    void groupBoundIsCappedByRowsAndSaturates() {
        KeyPacking p = KeyPacking.of(List.of(range(0, (1L << 30) - 1, 0), range(0, (1L << 30) - 1, 0)), 100);
        assertEquals(60, p.bits());
        assertEquals(100, p.groupBound());
    }

    @Test
    void widerThan63BitsDoesNotPack() {
        assertNull(KeyPacking.of(List.of(range(0, -1L, 0)), 10));
        assertNull(KeyPacking.of(List.of(range(0, 1L << 62, 0), range(0, 3, 0)), 10));
        assertNull(KeyPacking.of(List.of(range(0, -1L, 1)), 10));
    }

    @Test
    void pathRule() {
        assertEquals(AggregationPath.UNGROUPED, GroupByTuning.path(0, null));
        assertEquals(AggregationPath.HASH, GroupByTuning.path(1, KeyPacking.of(List.of(range(0, 1000, 1)), 1 << 20)));
        assertEquals(AggregationPath.SORT, GroupByTuning.path(1, null));
        assertEquals(AggregationPath.SORT,
                GroupByTuning.path(1, KeyPacking.of(List.of(range(0, 1L << 40, 0)), 1L << 30)));
    }

    @Test
    void accumulatorRule() {
        // One SUM: 24 bytes of state per group and block copy.
        assertEquals(GroupByTuning.Accumulator.REGISTERS, GroupByTuning.accumulator(1, 24));
        assertEquals(GroupByTuning.Accumulator.REGISTERS, GroupByTuning.accumulator(4, 4 * 8 * 24), "q01: 4 groups, 8 aggregates");
        assertEquals(GroupByTuning.Accumulator.WARP_MERGED, GroupByTuning.accumulator(5, 5 * 24));
        assertEquals(GroupByTuning.Accumulator.WARP_MERGED, GroupByTuning.accumulator(8, 8 * 24));
        assertEquals(GroupByTuning.Accumulator.BLOCK_SHARED, GroupByTuning.accumulator(9, 9 * 24));
        assertEquals(GroupByTuning.Accumulator.BLOCK_SHARED, GroupByTuning.accumulator(2048, 2048 * 24));
        assertEquals(GroupByTuning.Accumulator.GLOBAL, GroupByTuning.accumulator(2049, 2049 * 24));
        assertEquals(GroupByTuning.Accumulator.GLOBAL, GroupByTuning.accumulator(4, 49 << 10),
                "few groups with too many aggregates for shared memory");
    }

    /** The host's bound on register accumulation is the kernel's (accumulate.cu, read without a GPU). */
    @Test
    void registerGroupsAgreeWithTheKernel() throws IOException {
        Path inModule = Path.of("src/main/cuda/aggregate/accumulate.cu");
        String kernel = Files.readString(Files.exists(inModule) ? inModule : Path.of("executor-gpu").resolve(inModule));
        Matcher m = Pattern.compile("constexpr int REGISTER_GROUPS = (\\d+);").matcher(kernel);
        assertTrue(m.find(), "no REGISTER_GROUPS in accumulate.cu");
        assertEquals(GroupByTuning.REGISTER_GROUPS, Integer.parseInt(m.group(1)));
    }

    @Test
    void fewGroupsGetAnL2SizedTableAndLargeBlocks() {
        GroupByTuning.TablePlan p = GroupByTuning.table(12, HashGrouping.SLOT_BYTES, H100);
        assertEquals((50L << 20) / 12, p.slots());
        assertEquals("L2-sized table", p.rule());
        assertTrue(p.fillFactor() < 0.5);
        assertEquals(132, p.blocks());
        assertEquals(1024, p.threads());
    }

    @Test
    void tablesBelowTwoGigabytesAreHalfFull() {
        // 10^7 groups: 2 * 10^7 slots of 12 bytes = 240 MB, over 4x L2: 8 NSM blocks of 64 threads.
        GroupByTuning.TablePlan p = GroupByTuning.table(10_000_000, HashGrouping.SLOT_BYTES, H100);
        assertEquals(20_000_000, p.slots());
        assertEquals(0.5, p.fillFactor(), 1e-12);
        assertEquals("50% fill", p.rule());
        assertEquals(8 * 132, p.blocks());
        assertEquals(64, p.threads());
        // 2^22 groups: 2^23 slots, 96 MiB, just under 4x L2 (200 MiB): the cached-table grid.
        GroupByTuning.TablePlan q = GroupByTuning.table(1 << 22, HashGrouping.SLOT_BYTES, H100);
        assertEquals(1 << 23, q.slots());
        assertEquals(1024, q.threads());
    }

    @Test
    void tablesBeyondTwoGigabytesAreFilledTo83Percent() {
        // 10^8 groups: half full would be 2.4 GB; at 83% the table is 1.45 GB, still the < 2 GB grid.
        GroupByTuning.TablePlan p = GroupByTuning.table(100_000_000, HashGrouping.SLOT_BYTES, H100);
        assertEquals("83% fill", p.rule());
        assertEquals(0.83, p.fillFactor(), 1e-6);
        assertEquals(64, p.threads());
        // 2 x 10^8 groups: a 2.9 GB table, 8 threads per block.
        GroupByTuning.TablePlan q = GroupByTuning.table(200_000_000, HashGrouping.SLOT_BYTES, H100);
        assertEquals(8 * 132, q.blocks());
        assertEquals(8, q.threads());
    }

    @Test
    void rulesFollowTheDevice() {
        // A small GPU (14 SMs, 1.5 MiB L2, the paper's GTX Titan): 10^5 groups no longer fit L2.
        GroupByTuning.Device titan = new GroupByTuning.Device(14, 1536 << 10);
        GroupByTuning.TablePlan p = GroupByTuning.table(100_000, HashGrouping.SLOT_BYTES, titan);
        assertEquals("50% fill", p.rule());
        assertEquals(200_000, p.slots());
        assertEquals(14, p.blocks());
        assertEquals(1024, p.threads());
        assertEquals("L2-sized table", GroupByTuning.table(100_000, HashGrouping.SLOT_BYTES, H100).rule());
    }

    @Test
    void orderedKeysDecode() {
        assertEquals(-5, AggregateResults.decode(-5L ^ Long.MIN_VALUE, io.warpdb.exec.gpu.sort.KeyColumn.INT64));
        long bits = Double.doubleToLongBits(-2.5);
        assertEquals(bits, AggregateResults.decode(~bits, io.warpdb.exec.gpu.sort.KeyColumn.F64_ORDER));
        bits = Double.doubleToLongBits(2.5);
        assertEquals(bits, AggregateResults.decode(bits | Long.MIN_VALUE, io.warpdb.exec.gpu.sort.KeyColumn.F64_ORDER));
    }
}
