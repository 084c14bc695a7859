package io.warpdb.exec.cpu.hash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Tuple ids and first-occurrence flags across calls that take the small-key path and the hash path. */
class KeyTableTest {
    @Test
    void aSmallTupleAddedByTheHashPathIsNotNewLater() {
        KeyTable table = new KeyTable(2);
        // One large key sends the first call down the hash path; (0, 0) goes in there.
        int[] firstIds = new int[2];
        boolean[] firstNew = new boolean[2];
        table.add(new long[][] {{0, 0}, {0, 4_645_123_456_789L}}, new boolean[2][], null, firstIds, firstNew);
        assertArrayEquals(new boolean[] {true, true}, firstNew);
        // Only small keys: the small-tuple path must find (0, 0) and (0, 3) as what they are.
        int[] ids = new int[3];
        boolean[] isNew = new boolean[3];
        table.add(new long[][] {{0, 0, 0}, {0, 3, 3}}, new boolean[2][], null, ids, isNew);
        assertEquals(firstIds[0], ids[0]);
        assertArrayEquals(new boolean[] {false, true, false}, isNew);
        assertEquals(ids[1], ids[2]);
        assertEquals(3, table.size());
    }
}
