package io.warpdb.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NodeStatsTest {
    @Test
    void deviceTrafficAddsUpAcrossRecordersAndGivesBandwidthOverKernelTime() throws InterruptedException {
        NodeStats stats = new NodeStats();
        ExecutorService workers = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 100; i++) {
            workers.execute(() -> {
                stats.addDeviceBytesRead(3_000);
                stats.addDeviceBytesWritten(1_000);
                stats.addKernelNanos(2);
            });
        }
        workers.shutdown();
        assertEquals(true, workers.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(300_000, stats.deviceBytesRead());
        assertEquals(100_000, stats.deviceBytesWritten());
        assertEquals(2_000, stats.deviceGigabytesPerSecond(), 1e-9, "400 kB in 200 ns");
    }

    @Test
    void noKernelTimeMeansNoBandwidth() {
        NodeStats stats = new NodeStats();
        stats.addDeviceBytesWritten(1_000_000);
        assertEquals(0, stats.deviceGigabytesPerSecond());
    }
}
