package io.warpdb.tpch;

import io.warpdb.ingest.OrderedParallel;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.IntFunction;

/**
 * Writes a benchmark's generated data as text files ({@code warpdb tpch gen}, {@code warpdb tpcds
 * gen}). The data comes in numbered tasks, run on a pool of threads, each making one part of the
 * text of one or more files (a TPC-DS sales part also makes its returns); the texts are appended in
 * task order, so the files do not depend on scheduling, and the tasks of all files form one queue,
 * so that a small file's single task runs beside a large file's many. Each file is written under
 * a temporary name and renamed when all are complete, so a file that exists is whole.
 */
public final class TextFileWriter {
    /** Tasks computed ahead of the writer per thread: parts of ~10 MB, a few per thread. */
    private static final int TASKS_AHEAD_PER_THREAD = 4;

    /** Part of a file: its bytes, and how many rows (lines) they hold. */
    public record Text(byte[] bytes, long rows) {
    }

    private TextFileWriter() {
    }

    /**
     * Runs tasks {@code 0..tasks-1} on {@code threads} threads and appends the texts each returns,
     * by file name, to those files in {@code dir} (created if missing). The report lists each file
     * with its rows and the time from the start until it was complete.
     */
    public static LoadReport write(Path dir, int tasks, IntFunction<Map<String, Text>> task, int threads) {
        long start = System.nanoTime();
        Map<String, OutputStream> open = new LinkedHashMap<>();
        Map<String, long[]> rowsAndEnd = new LinkedHashMap<>();
        ExecutorService pool = OrderedParallel.pool(threads, "text-file-writer");
        boolean complete = false;
        try {
            Files.createDirectories(dir);
            try (OrderedParallel<Map<String, Text>> parts = new OrderedParallel<>(pool, tasks,
                    TASKS_AHEAD_PER_THREAD * threads, task, texts -> { })) {
                while (parts.hasNext()) {
                    for (Map.Entry<String, Text> text : parts.next().entrySet()) {
                        OutputStream out = open.get(text.getKey());
                        if (out == null) {
                            out = Files.newOutputStream(temporary(dir, text.getKey()));
                            open.put(text.getKey(), out);
                        }
                        out.write(text.getValue().bytes());
                        long[] file = rowsAndEnd.computeIfAbsent(text.getKey(), name -> new long[2]);
                        file[0] += text.getValue().rows();
                        file[1] = System.nanoTime() - start;
                    }
                }
            }
            closeAll(open);
            for (String name : open.keySet()) {
                Files.move(temporary(dir, name), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
            complete = true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir, e);
        } finally {
            pool.shutdownNow();
            if (!complete) {
                deleteTemporaries(dir, open);
            }
        }
        List<LoadReport.TableLoad> files = new ArrayList<>();
        rowsAndEnd.forEach((name, file) -> files.add(new LoadReport.TableLoad(name, file[0], file[1])));
        return new LoadReport(dir.toString(), files, System.nanoTime() - start);
    }

    private static Path temporary(Path dir, String name) {
        return dir.resolve(name + ".tmp");
    }

    private static void closeAll(Map<String, OutputStream> open) throws IOException {
        IOException failed = null;
        for (OutputStream out : open.values()) {
            try {
                out.close();
            } catch (IOException e) {
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** After a failure: closes what is open and removes the partial files; the failure stays the one reported. */
    private static void deleteTemporaries(Path dir, Map<String, OutputStream> open) {
        for (String name : open.keySet()) {
            try {
                open.get(name).close();
                Files.deleteIfExists(temporary(dir, name));
            } catch (IOException e) {
                // the write's own failure is what the caller needs to see
            }
        }
    }
}
