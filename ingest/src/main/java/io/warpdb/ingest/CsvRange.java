package io.warpdb.ingest;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The records of one byte range of a CSV file, parsed on this machine's cores as a whole file
 * is ({@link CsvSource}, the same chunking and quoting rules): the share of a file that one node
 * of a cluster loads. A range {@code [from, to)} starts after the first line end at or after
 * {@code from} (at {@code from} itself for the file's first range, or where {@code from} is known to
 * start a record), and ends with the record that holds the first line end at or after {@code to}:
 * so consecutive ranges of a file hold each record once, provided no range starts inside a quoted
 * field that holds a line end. Whoever splits the file checks that: a range's {@link #start} must
 * be where the range before it {@link #end}ed. A range does not know the line it starts on; an
 * error counts the lines before it to name its line.
 */
public final class CsvRange implements AutoCloseable {
    private static final int SCAN_BYTES = 1 << 16;

    private final long start;
    /** Both null for a range that holds no record. */
    private final ExecutorService pool;
    private final CsvSource source;
    private boolean done;

    private CsvRange(long start, ExecutorService pool, CsvSource source) {
        this.start = start;
        this.pool = pool;
        this.source = source;
        this.done = source == null;
    }

    /** Whether {@code file} can be loaded in byte ranges: CSV text (a {@code .tbl} file too), not compressed. */
    public static boolean splittable(Path file, LoadOptions options) {
        if (options.formatOf(file) != LoadFormat.CSV) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file)) {
            return !(in.read() == 0x1f && in.read() == 0x8b); // gzip's magic number
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
    }

    /**
     * Where a range that begins at offset {@code from}, not known to start a record, starts: after
     * the first line end at or after {@code from}; the file's size when no line end follows.
     */
    public static long recordStart(Path file, long from) {
        long[] at = {from};
        boolean found = scanLineEnds(file, from, Long.MAX_VALUE, offset -> {
            at[0] = offset + 1;
            return false;
        });
        return found ? at[0] : Math.max(from, size(file));
    }

    /**
     * Opens the parse of the range {@code [from, to)} of {@code file} (as above; {@code
     * atRecordStart}: {@code from} starts a record) into batches of {@code schema} allocated to
     * {@code allocator}, on {@code threads} threads of its own. Bad values fail {@link #next} as they
     * fail a load of the whole file, naming the file, line and column.
     */
    public static CsvRange open(Path file, LoadOptions options, Schema schema, long from, boolean atRecordStart, long to, int threads,
            BufferAllocator allocator) {
        InputFiles.check(file);
        long start = atRecordStart ? from : recordStart(file, from);
        if (start > to) {
            return new CsvRange(start, null, null); // the record that holds its end began in the range before
        }
        CsvDialect dialect = options.dialectOf(file);
        InputFiles.CountingStream counted;
        try {
            counted = new InputFiles.CountingStream(Channels.newInputStream(FileChannel.open(file, StandardOpenOption.READ).position(start)));
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
        ExecutorService pool = OrderedParallel.pool(threads, "load-range");
        try {
            CsvParser parser = new CsvParser(file.toString(), dialect, () -> linesBefore(file, start));
            return new CsvRange(start, pool, new CsvSource(file, counted, start == 0, to - start, dialect, parser, schema, false, pool,
                    2 * threads, allocator));
        } catch (RuntimeException e) {
            pool.shutdownNow();
            throw e;
        }
    }

    /** The line ends before offset {@code offset} of {@code file}: an error's line is counted from there. */
    static long linesBefore(Path file, long offset) {
        long[] lines = {0};
        scanLineEnds(file, 0, offset, at -> {
            lines[0]++;
            return true;
        });
        return lines[0];
    }

    /**
     * Hands the offset of each line end in {@code [from, to)} of {@code file} to {@code more} until
     * it answers false; returns whether it did.
     */
    private static boolean scanLineEnds(Path file, long from, long to, LongPredicate more) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(SCAN_BYTES);
            for (long at = from; at < to; ) {
                buffer.clear().limit((int) Math.min(SCAN_BYTES, to - at));
                int n = channel.read(buffer, at);
                if (n <= 0) {
                    return false;
                }
                for (int i = 0; i < n; i++) {
                    if (buffer.get(i) == '\n' && !more.test(at + i)) {
                        return true;
                    }
                }
                at += n;
            }
            return false;
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
    }

    /** The offset where the range's first record starts. */
    public long start() {
        return start;
    }

    /** Once {@link #next} returned null: the offset where the range's last record ends (its start when it holds none). */
    public long end() {
        if (!done) {
            throw new IllegalStateException("the range is not parsed to its end yet");
        }
        return source == null ? start : start + source.consumed();
    }

    /** The next batch of the range's records, in file order, or null after the last; the caller owns it. */
    public Batch next() {
        while (!done) {
            LoadedPart part = source.next();
            if (part == null) {
                done = true;
            } else if (part.batch() != null) {
                return part.batch();
            }
        }
        return null;
    }

    @Override
    public void close() {
        if (source == null) {
            return;
        }
        try {
            source.close();
        } finally {
            pool.shutdownNow();
        }
    }
}
