package io.warpdb.exec.cpu.hash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PartitionOrderTest {
    @Test
    void ordersItemsByPartitionAscendingAndLeavesOutNegativeOnes() {
        int[] partitionOf = {2, 0, -1, 2, 1, 0, -1, 2};
        PartitionOrder order = PartitionOrder.of(partitionOf, 3);
        assertArrayEquals(new int[] {1, 5, 4, 0, 3, 7}, order.items());
        assertEquals(0, order.start(0));
        assertEquals(2, order.end(0));
        assertEquals(2, order.start(1));
        assertEquals(3, order.end(1));
        assertEquals(3, order.start(2));
        assertEquals(6, order.end(2));
        assertEquals(4, order.item(2));
    }

    @Test
    void emptyAndEmptyPartitions() {
        PartitionOrder empty = PartitionOrder.of(new int[0], 4);
        assertEquals(0, empty.items().length);
        for (int p = 0; p < 4; p++) {
            assertEquals(0, empty.end(p) - empty.start(p));
        }
        PartitionOrder allLeftOut = PartitionOrder.of(new int[] {-1, -1}, 2);
        assertEquals(0, allLeftOut.items().length);
        assertEquals(0, allLeftOut.end(1));
    }

    @Test
    void partitionOfAHashIsInRangeAndUsesTheHighBits() {
        for (int hash : new int[] {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7f00_0000, 12345}) {
            int p = PartitionOrder.partition(hash, 7);
            assertTrue(p >= 0 && p < 7, "hash " + hash + " -> " + p);
        }
        assertEquals(0, PartitionOrder.partition(0x00ff_ffff, 16));
        assertEquals(15, PartitionOrder.partition(0xf000_0000, 16));
    }
}
