package io.warpdb.exec.gpu.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Dealing tasks over the lanes of several devices, without a device: lanes stand for streams of gpu0 and gpu1. */
class TaskDealerTest {
    /** A lane's work: which device and lane it is, and whether it was finished. */
    private static final class FakeWork {
        final String device;
        final int lane;
        boolean finished;

        FakeWork(String device, int lane) {
            this.device = device;
            this.lane = lane;
        }
    }

    private record Result(int task, String device, AtomicInteger closes) implements AutoCloseable {
        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private static final class FakeLane implements TaskDealer.Lane<FakeWork> {
        final String device;
        final int lane;
        final List<FakeWork> opened;

        FakeLane(String device, int lane, List<FakeWork> opened) {
            this.device = device;
            this.lane = lane;
            this.opened = opened;
        }

        @Override
        public String device() {
            return device;
        }

        @Override
        public FakeWork open() {
            FakeWork w = new FakeWork(device, lane);
            synchronized (opened) {
                opened.add(w);
            }
            return w;
        }

        @Override
        public void finish(FakeWork work) {
            work.finished = true;
        }
    }

    /** Three streams on each of two devices, alternating devices as StreamPipeline lists them. */
    private static List<FakeLane> lanes(List<FakeWork> opened) {
        List<FakeLane> lanes = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            for (String device : List.of("gpu0", "gpu1")) {
                lanes.add(new FakeLane(device, lanes.size(), opened));
            }
        }
        return lanes;
    }

    @Test
    void everyTaskRunsOnceResultsComeInTaskOrderAndTheTallySaysWhere() {
        List<FakeWork> opened = new ArrayList<>();
        TaskDealer<FakeWork> dealer = new TaskDealer<>(lanes(opened));
        AtomicInteger closes = new AtomicInteger();
        List<TaskDealer.Job<FakeWork, Result>> tasks = new ArrayList<>();
        for (int i = 0; i < 23; i++) {
            int task = i;
            tasks.add(work -> new Result(task, work.device, closes));
        }
        List<Result> results = dealer.run(tasks);
        assertEquals(23, results.size());
        Map<String, Integer> perDevice = new ConcurrentHashMap<>();
        for (int i = 0; i < 23; i++) {
            assertEquals(i, results.get(i).task());
            perDevice.merge(results.get(i).device(), 1, Integer::sum);
        }
        DeviceTally tally = dealer.tally();
        assertEquals(perDevice.getOrDefault("gpu0", 0), tally.tasks().get("gpu0"));
        assertEquals(perDevice.getOrDefault("gpu1", 0), tally.tasks().get("gpu1"));
        assertEquals(23, tally.total());
        assertEquals(List.of("gpu0", "gpu1"), List.copyOf(tally.tasks().keySet()), "devices in the order chosen");
        assertTrue(opened.size() <= 6 && opened.stream().allMatch(w -> w.finished), "every opened lane is finished");
        assertEquals(0, closes.get(), "results belong to the caller");
    }

    @Test
    void twoTasksGoToTwoDevicesAtOnce() throws InterruptedException {
        List<FakeWork> opened = new ArrayList<>();
        TaskDealer<FakeWork> dealer = new TaskDealer<>(lanes(opened));
        // Each task waits for the other: they can only both finish when they run at once, on lanes 0 and 1 (gpu0 and gpu1).
        CountDownLatch both = new CountDownLatch(2);
        AtomicInteger closes = new AtomicInteger();
        List<TaskDealer.Job<FakeWork, Result>> tasks = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int task = i;
            tasks.add(work -> {
                both.countDown();
                try {
                    assertTrue(both.await(10, TimeUnit.SECONDS), "the other task never started");
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return new Result(task, work.device, closes);
            });
        }
        List<Result> results = dealer.run(tasks);
        assertEquals(2, opened.size(), "one lane per task");
        assertEquals(Map.of("gpu0", 1, "gpu1", 1), dealer.tally().tasks());
        assertEquals("gpu0 1, gpu1 1", dealer.tally().describe());
        results.forEach(Result::close);
    }

    @Test
    void aFailingTaskClosesTheResultsMadeAndIsRethrown() {
        List<FakeWork> opened = new ArrayList<>();
        TaskDealer<FakeWork> dealer = new TaskDealer<>(lanes(opened));
        AtomicInteger closes = new AtomicInteger();
        AtomicInteger made = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("task 7 failed");
        List<TaskDealer.Job<FakeWork, Result>> tasks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int task = i;
            tasks.add(work -> {
                if (task == 7) {
                    throw boom;
                }
                made.incrementAndGet();
                return new Result(task, work.device, closes);
            });
        }
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> dealer.run(tasks));
        assertSame(boom, thrown);
        assertEquals(made.get(), closes.get(), "every result made before the failure is closed");
        assertTrue(opened.stream().allMatch(w -> w.finished), "lanes are finished after a failure too");
    }

    @Test
    void theTallySinceAnEarlierOneCountsOnlyTheLaterTasks() {
        TaskDealer<FakeWork> dealer = new TaskDealer<>(lanes(new ArrayList<>()));
        AtomicInteger closes = new AtomicInteger();
        List<TaskDealer.Job<FakeWork, Result>> five = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int task = i;
            five.add(work -> new Result(task, work.device, closes));
        }
        dealer.run(five);
        DeviceTally before = dealer.tally();
        dealer.run(five.subList(0, 3));
        assertEquals(3, dealer.tally().since(before).total());
        assertEquals(8, dealer.tally().total());
        assertThrows(IllegalArgumentException.class, () -> new TaskDealer<FakeWork>(List.of()));
    }
}
