package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClusteredKeysTest {
    private static ClusteredKeys worker(long[]... batches) {
        ClusteredKeys keys = new ClusteredKeys();
        for (long[] batch : batches) {
            keys.add(batch, null, batch.length);
        }
        return keys;
    }

    @Test
    void rangesMeetingAtTheirEndsAreApartAndTheirEndsAreTheBoundaries() {
        ClusteredKeys first = worker(new long[] {1, 1, 2, 3}, new long[] {}, new long[] {7, 7, 7});
        ClusteredKeys second = worker(new long[] {3, 4, 5, 7}, new long[] {7});
        assertTrue(ClusteredKeys.apart(List.of(first, second)));
        assertArrayEquals(new long[] {1, 3, 7}, ClusteredKeys.boundaries(List.of(first, second)));
        assertTrue(ClusteredKeys.apart(List.of(worker(), worker(new long[] {42}))));
    }

    @Test
    void overlappingUnsortedOrNullKeysAreNot() {
        assertFalse(ClusteredKeys.apart(List.of(worker(new long[] {1, 5}), worker(new long[] {3, 4}))));
        assertFalse(ClusteredKeys.apart(List.of(worker(new long[] {1, 5}, new long[] {4, 9}))));
        assertFalse(ClusteredKeys.apart(List.of(worker(new long[] {1, 3, 2}))));
        ClusteredKeys withNull = new ClusteredKeys();
        withNull.add(new long[] {1, 0, 2}, new boolean[] {false, true, false}, 3);
        assertFalse(ClusteredKeys.apart(List.of(withNull)));
    }
}
