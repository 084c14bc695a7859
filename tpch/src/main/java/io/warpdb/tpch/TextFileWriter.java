package io.warpdb.tpch;

import io.warpdb.ingest.OrderedParallel;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Writes a benchmark's generated data as text files ({@code warpdb tpch gen}, {@code warpdb tpcds
 * gen}). The data comes in groups of files made together (one table's file; a TPC-DS sales
 * table's and its returns', generated in one pass), each in parts that a shared pool of threads
 * generates. A group's parts are appended in part order, so the files do not depend on
 * scheduling; the groups are written at once, each by its own writer, so that a table generated
 * in one slow part (a slowly changing dimension) holds up no other table. Each file is written
 * under a temporary name and renamed when all are complete, so a file that exists is whole.
 */
public final class TextFileWriter {
    /** Part of a file: its bytes, and how many rows (lines) they hold. */
    public record Text(byte[] bytes, long rows) {
    }

    /** Files made together: part {@code p}'s text of each, in the order of {@code files}, is {@code part.apply(p)}. */
    public record Group(List<String> files, int parts, IntFunction<List<Text>> part) {
        public Group {
            files = List.copyOf(files);
        }
    }

    private TextFileWriter() {
    }

    /**
     * Writes the groups' files into {@code dir} (created if missing), their parts generated on
     * {@code threads} threads. The report lists each file with its rows and the time from the
     * start until its group was complete.
     */
    public static LoadReport write(Path dir, List<Group> groups, int threads) {
        long start = System.nanoTime();
        ExecutorService pool = OrderedParallel.pool(threads, "text-file-part");
        ExecutorService writers = OrderedParallel.pool(groups.size(), "text-file-writer");
        boolean complete = false;
        try {
            Files.createDirectories(dir);
            List<Future<List<LoadReport.TableLoad>>> written = new ArrayList<>();
            for (Group group : groups) {
                written.add(writers.submit(() -> writeGroup(dir, group, pool, threads, start)));
            }
            List<LoadReport.TableLoad> files = new ArrayList<>();
            for (Future<List<LoadReport.TableLoad>> group : written) {
                files.addAll(group.get());
            }
            for (Group group : groups) {
                for (String name : group.files()) {
                    Files.move(temporary(dir, name), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                }
            }
            complete = true;
            return new LoadReport(dir.toString(), files, System.nanoTime() - start);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing " + dir, e);
        } finally {
            writers.shutdownNow();
            pool.shutdownNow();
            if (!complete) {
                awaitWriters(writers);
                deleteTemporaries(dir, groups);
            }
        }
    }

    private static List<LoadReport.TableLoad> writeGroup(Path dir, Group group, ExecutorService pool, int threads, long start)
            throws IOException {
        List<OutputStream> outs = new ArrayList<>();
        long[] rows = new long[group.files().size()];
        try {
            for (String name : group.files()) {
                outs.add(Files.newOutputStream(temporary(dir, name)));
            }
            try (OrderedParallel<List<Text>> parts = new OrderedParallel<>(pool, group.parts(), 2 * threads, group.part(), texts -> { })) {
                while (parts.hasNext()) {
                    List<Text> texts = parts.next();
                    for (int f = 0; f < rows.length; f++) {
                        outs.get(f).write(texts.get(f).bytes());
                        rows[f] += texts.get(f).rows();
                    }
                }
            }
        } finally {
            for (OutputStream out : outs) {
                out.close();
            }
        }
        long nanos = System.nanoTime() - start;
        List<LoadReport.TableLoad> files = new ArrayList<>();
        for (int f = 0; f < rows.length; f++) {
            files.add(new LoadReport.TableLoad(group.files().get(f), rows[f], nanos));
        }
        return files;
    }

    private static Path temporary(Path dir, String name) {
        return dir.resolve(name + ".tmp");
    }

    /** After a failure: lets the interrupted writers close their files before these are removed. */
    private static void awaitWriters(ExecutorService writers) {
        try {
            writers.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** After a failure: removes the partial files; the failure stays the one reported. */
    private static void deleteTemporaries(Path dir, List<Group> groups) {
        for (Group group : groups) {
            for (String name : group.files()) {
                try {
                    Files.deleteIfExists(temporary(dir, name));
                } catch (IOException e) {
                    // the write's own failure is what the caller needs to see
                }
            }
        }
    }
}
