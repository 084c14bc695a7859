package io.warpdb.exec.gpu.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.StringDictionary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hash join's host-side logic, without a GPU (its results are tested in {@link GpuJoinTest}). */
class GpuHashJoinTest {
    @Test
    void hashTableIsAPowerOfTwoAtMostHalfFull() {
        assertEquals(2, GpuHashJoin.tableSlots(0));
        assertEquals(2, GpuHashJoin.tableSlots(1));
        assertEquals(4, GpuHashJoin.tableSlots(2));
        assertEquals(8, GpuHashJoin.tableSlots(3));
        assertEquals(8, GpuHashJoin.tableSlots(4));
        assertEquals(1L << 32, GpuHashJoin.tableSlots(Integer.MAX_VALUE));
        for (long rows = 0; rows < 5000; rows++) {
            long slots = GpuHashJoin.tableSlots(rows);
            assertEquals(1, Long.bitCount(slots), "slots for " + rows);
            assertTrue(slots >= 2 * rows && (slots <= 2 || slots / 2 < 2 * rows), "slots " + slots + " for " + rows);
        }
    }

    @Test
    void stringCodesOfBothDictionariesMeetOnTheirValues() {
        StringDictionary probe = StringDictionary.ofDistinct(List.of("b", "x", "a", ""));
        StringDictionary build = StringDictionary.ofValues(new String[] {"a", "", "b", "a", "c"});
        DeviceJoinKeys.CodeKeys keys = DeviceJoinKeys.codeKeys(probe, build);
        int[] b = keys.build();
        int[] p = keys.probe();
        assertEquals(b[0], b[3], "repeated build values share a key");
        assertEquals(b[2], p[0]);
        assertEquals(b[0], p[2]);
        assertEquals(b[1], p[3]);
        for (int code : b) {
            assertNotEquals(code, p[1], "a probe string the build side lacks matches no build code");
        }
        DeviceJoinKeys.CodeKeys empty = DeviceJoinKeys.codeKeys(probe, StringDictionary.EMPTY);
        assertArrayEquals(new int[0], empty.build());
        assertEquals(4, empty.probe().length);
    }
}
