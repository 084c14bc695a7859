package io.warpdb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a {@link CrashWorker} process with SIGKILL at random points, again and again, and checks
 * after each kill that reopening shows exactly the last committed state: the one the worker
 * printed last, or the next one when the kill came after its commit but before the print.
 */
class CrashTest {
    private static final int ITERATIONS = 15;

    @TempDir
    Path dir;
    /** The worker's stderr, shown when it fails (kept apart: dir must hold only catalog files). */
    @TempDir
    Path logs;

    @Test
    void killedLoadsLeaveTheLastCommittedState() throws Exception {
        runKills(true, new Random(20261122));
    }

    @Test
    void killedDeletesAndUpdatesLeaveTheLastCommittedState() throws Exception {
        try (BufferAllocator root = new RootAllocator(); Catalog catalog = Catalog.open(dir, root, CrashWorker.OPTIONS)) {
            Table t = catalog.create("t", DurableCatalogTest.ALL_TYPES, false);
            try (BufferAllocator a = root.newChildAllocator("load", 0, Long.MAX_VALUE)) {
                DurableCatalogTest.append(t, 0, CrashWorker.MUTATE_ROWS, 500, a);
            }
        }
        runKills(false, new Random(7));
    }

    private void runKills(boolean load, Random random) throws Exception {
        int committed = 0;
        for (int i = 0; i < ITERATIONS; i++) {
            Process worker = start(load);
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = pump(worker, lines);
            try {
                if (i > 0 && random.nextInt(4) == 0) {
                    Thread.sleep(100 + random.nextInt(600)); // somewhere in start-up, recovery or the first commits
                } else {
                    expectLine(lines, "ready", worker);
                    if (i == 0) {
                        WarpException e = assertThrows(WarpException.class, () -> openAndRead(load));
                        assertEquals(SqlState.CONNECTION_EXCEPTION, e.state(), e.getMessage());
                    }
                    int waitFor = random.nextInt(6);
                    for (int seen = 0; seen < waitFor; seen++) {
                        committed = Math.max(committed, committedCount(expectLine(lines, "committed ", worker)));
                    }
                    Thread.sleep(random.nextInt(25));
                }
            } finally {
                worker.destroyForcibly(); // SIGKILL
                worker.waitFor(30, TimeUnit.SECONDS);
                reader.join(30_000);
            }
            for (String line : lines) {
                if (line.startsWith("committed ")) {
                    committed = Math.max(committed, committedCount(line));
                }
            }
            State state = openAndRead(load);
            assertTrue(state.steps == committed || state.steps == committed + 1,
                    "iteration " + i + ": printed " + committed + " commits, the directory holds " + state.steps);
            assertEquals(CrashWorker.expected(load, state.steps), state.rows, "iteration " + i);
            assertEquals(state.liveFiles, state.filesOnDisk, "iteration " + i + ": only the current version's files are left");
            committed = state.steps;
        }
        assertTrue(committed > 0, "no iteration committed anything");
    }

    private Process start(boolean load) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), CrashWorker.class.getName(), load ? "load" : "mutate", dir.toString());
        pb.redirectError(logs.resolve("worker.err").toFile());
        return pb.start();
    }

    private static Thread pump(Process worker, BlockingQueue<String> lines) {
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the process was killed mid-line
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The next line, which must start with {@code prefix}; fails when the worker died or hangs. */
    private String expectLine(BlockingQueue<String> lines, String prefix, Process worker) throws Exception {
        String line = lines.poll(30, TimeUnit.SECONDS);
        if (line == null) {
            fail("worker printed nothing for 30 s; alive: " + worker.isAlive() + (worker.isAlive() ? "" : ", exit "
                    + worker.exitValue()) + "; its stderr:\n" + Files.readString(logs.resolve("worker.err")));
        }
        assertTrue(line.startsWith(prefix), line);
        return line;
    }

    private static int committedCount(String line) {
        return Integer.parseInt(line.substring("committed ".length()).trim());
    }

    private record State(int steps, List<List<Object>> rows, List<Path> liveFiles, List<Path> filesOnDisk) {
    }

    private State openAndRead(boolean load) throws IOException {
        try (BufferAllocator root = new RootAllocator()) {
            State state;
            try (Catalog catalog = Catalog.open(dir, root, CrashWorker.OPTIONS);
                    BufferAllocator a = root.newChildAllocator("check", 0, Long.MAX_VALUE)) {
                List<List<Object>> rows = catalog.table("t").map(t -> TestData.read(t.snapshot(), a)).orElse(List.of());
                int steps = load ? rows.size() / CrashWorker.LOAD_BATCH : inferMutateSteps(rows);
                if (!load) {
                    rows = new ArrayList<>(rows);
                    rows.sort(Comparator.comparing(r -> (Long) r.get(0)));
                }
                state = new State(steps, rows, liveFiles(catalog), filesOnDisk());
            }
            assertEquals(0, root.getAllocatedMemory());
            return state;
        }
    }

    /** The step count whose expected state has as many rows, for the message; contents are compared exactly after. */
    private static int inferMutateSteps(List<List<Object>> rows) {
        for (int steps = 0; steps <= CrashWorker.MUTATE_STEPS; steps++) {
            if (CrashWorker.expected(false, steps).equals(sorted(rows))) {
                return steps;
            }
        }
        return -1;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> s = new ArrayList<>(rows);
        s.sort(Comparator.comparing(r -> (Long) r.get(0)));
        return s;
    }

    /** The files the current manifest names, plus the manifest itself. */
    private List<Path> liveFiles(Catalog catalog) {
        DataDirectory files = ((DurableStore) catalog.store()).directory();
        List<Path> live = new ArrayList<>();
        live.add(files.manifestFile(catalog.version()));
        catalog.manifest().forEachSegment(ref -> {
            live.add(files.segmentFile(ref.segment().id()));
            if (ref.deletes().fileId() != 0) {
                live.add(files.deleteVectorFile(ref.deletes().fileId()));
            }
        });
        live.sort(Comparator.naturalOrder());
        return live;
    }

    private List<Path> filesOnDisk() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("LOCK"))
                    .sorted().toList();
        }
    }
}
