package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConcurrentClientsTest {
    @Test
    void percentilesAreNearestRank() {
        long[] nanos = new long[100];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (i + 1) * 1_000_000L;
        }
        assertEquals(50.0, ConcurrentClients.percentile(nanos, 0.50));
        assertEquals(99.0, ConcurrentClients.percentile(nanos, 0.99));
        assertEquals(7.0, ConcurrentClients.percentile(new long[] {7_000_000L}, 0.99));
        assertTrue(Double.isNaN(ConcurrentClients.percentile(new long[0], 0.5)));
    }
}
