package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the GPU's APPROX_COUNT_DISTINCT relies on to give the CPU's answers: a sketch's estimate is
 * a function of the set of distinct hashes added (not their order, repeats or merges), namely
 * their count up to SPARSE_LIMIT and otherwise {@link HyperLogLog#denseEstimate} of the registers
 * that {@link HyperLogLog#bucket} and {@link HyperLogLog#rank} fill, summed in register order.
 */
class HyperLogLogTest {
    @Test
    void theEstimateIsTheDistinctCountOrTheRegistersEstimateOfTheDistinctHashes() {
        Random random = new Random(7);
        for (int distinct : new int[] {0, 1, 31, 32, 33, HyperLogLog.SPARSE_LIMIT, HyperLogLog.SPARSE_LIMIT + 1, 5000, 40_000, 300_000}) {
            Set<Long> hashes = new LinkedHashSet<>();
            while (hashes.size() < distinct) {
                hashes.add(HyperLogLog.hash(random.nextLong()));
            }
            List<Long> rows = new ArrayList<>(hashes);
            rows.addAll(hashes.stream().limit(distinct / 3).toList());  // duplicates
            Collections.shuffle(rows, random);
            HyperLogLog sketch = new HyperLogLog();
            rows.forEach(sketch::add);
            long expected = distinct <= HyperLogLog.SPARSE_LIMIT ? distinct : registersEstimate(hashes);
            assertEquals(expected, sketch.estimate(), distinct + " distinct hashes");
            // Two workers' sketches, merged: the same set, the same estimate.
            HyperLogLog first = new HyperLogLog();
            HyperLogLog second = new HyperLogLog();
            for (int i = 0; i < rows.size(); i++) {
                (i % 3 == 0 ? first : second).add(rows.get(i));
            }
            second.addAll(first);
            assertEquals(expected, second.estimate(), distinct + " distinct hashes, merged");
        }
    }

    @Test
    void bucketsAndRanksSplitTheHash() {
        assertEquals(0, HyperLogLog.bucket(0));
        assertEquals(HyperLogLog.REGISTERS - 1, HyperLogLog.bucket(-1L));
        assertEquals(1, HyperLogLog.rank(-1L));
        assertEquals(64 - HyperLogLog.PRECISION + 1, HyperLogLog.rank(0));
        assertEquals(2, HyperLogLog.rank(1L << (64 - HyperLogLog.PRECISION - 2)));
    }

    @Test
    void doublesHashAsTheirCanonicalBits() {
        assertEquals(HyperLogLog.hash(0.0), HyperLogLog.hash(-0.0));
        assertEquals(HyperLogLog.hash(Double.NaN), HyperLogLog.hash(Double.longBitsToDouble(0x7ff8_0000_0000_0001L)));
        assertEquals(HyperLogLog.hash(Double.doubleToLongBits(1.5)), HyperLogLog.hash(1.5));
    }

    /** The estimate of registers filled from {@code hashes}, as the GPU computes it (aggregate/approx_distinct.cu). */
    private static long registersEstimate(Set<Long> hashes) {
        byte[] registers = new byte[HyperLogLog.REGISTERS];
        for (long h : hashes) {
            int bucket = HyperLogLog.bucket(h);
            registers[bucket] = (byte) Math.max(registers[bucket], HyperLogLog.rank(h));
        }
        double inverseSum = 0;
        int empty = 0;
        for (byte r : registers) {
            inverseSum += Double.longBitsToDouble((long) (1023 - r) << 52);
            empty += r == 0 ? 1 : 0;
        }
        return HyperLogLog.denseEstimate(inverseSum, empty);
    }
}
