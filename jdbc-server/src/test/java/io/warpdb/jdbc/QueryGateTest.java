package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.WarpException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server's limit on statements running at once. */
class QueryGateTest {
    @Test
    void statementsBeyondTheLimitWaitThenGiveUpWith53000() throws Exception {
        QueryGate gate = new QueryGate(1, Duration.ofMillis(200));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> first = pool.submit(() -> gate.run(() -> {
                running.countDown();
                await(finish);
                return 1;
            }));
            running.await();
            WarpException e = assertThrows(WarpException.class, () -> gate.run(() -> 2));
            assertEquals("53000", e.sqlState());
            finish.countDown();
            assertEquals(1, first.get(10, TimeUnit.SECONDS));
            assertEquals(3, gate.run(() -> 3), "the permit came back");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aWaitingStatementRunsWhenAPermitFreesUp() throws Exception {
        QueryGate gate = new QueryGate(1, Duration.ofSeconds(30));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> first = pool.submit(() -> gate.run(() -> {
                running.countDown();
                await(finish);
                return 1;
            }));
            running.await();
            Future<Integer> queued = pool.submit(() -> gate.run(() -> 2));
            finish.countDown();
            assertEquals(1, first.get(10, TimeUnit.SECONDS));
            assertEquals(2, queued.get(10, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
