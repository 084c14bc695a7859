package io.warpdb.ingest;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.Table;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Bulk loads files into a table: CSV (optionally gzip-compressed), Parquet and Arrow IPC, for
 * COPY and {@code warpdb load}. A load is one atomic append: the table gets every row or, on
 * any error, none. A bad row fails the load with its file, line and column, unless
 * {@link LoadOptions#maxErrors()} allows rejecting it: rejected rows are written to the reject
 * file as they were read, and fail the load only when there are more of them than allowed.
 */
public final class Loader {
    /** What a load did: rows appended, rows rejected, and where those went (null when none). */
    public record Result(long rows, long rejected, Path rejectFile) {
    }

    /** Told after each part: file bytes read so far (all files) and rows parsed. Called on the loading thread. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (bytes, rows) -> { };

        void update(long bytesRead, long rows);
    }

    private final Catalog catalog;
    private final BufferAllocator parentAllocator;
    private final LoadOptions options;
    private final Progress progress;
    private final int threads;

    /** Loads into tables of {@code catalog}; a load allocates its batches from a child of {@code parentAllocator}. */
    public Loader(Catalog catalog, BufferAllocator parentAllocator, LoadOptions options, Progress progress) {
        this(catalog, parentAllocator, options, progress, defaultThreads());
    }

    /**
     * Parsing threads by default: half the cores. The segments fill and encode on the common pool
     * beside them, about as much work as the parsing (TPC-H lineitem): on 2 cores one parser loads
     * in 4.4-5.2 s, two in 5.2-7.4 s (docs/benchmarks.md).
     */
    public static int defaultThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    public Loader(Catalog catalog, BufferAllocator parentAllocator, LoadOptions options, Progress progress, int threads) {
        this.catalog = catalog;
        this.parentAllocator = parentAllocator;
        this.options = options;
        this.progress = progress;
        this.threads = Math.max(1, threads);
    }

    /** Loads {@code files}, in order, into {@code tableName} as one commit. */
    public Result load(String tableName, List<Path> files) {
        if (files.isEmpty()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "no files to load");
        }
        files.forEach(InputFiles::check);
        Table existing = catalog.table(tableName).orElse(null);
        if (existing == null && !options.create()) {
            throw new WarpException(SqlState.UNDEFINED_TABLE, "table " + tableName + " does not exist");
        }
        Table table = existing != null ? existing : catalog.create(tableName, inferSchema(files.get(0)), false);
        ExecutorService pool = OrderedParallel.pool(threads, "load");
        try (BufferAllocator allocator = parentAllocator.newChildAllocator("load", 0, Long.MAX_VALUE);
                Parts parts = new Parts(table.schema(), files, pool, allocator)) {
            long rows = table.append(parts);
            return new Result(rows, parts.rejected, parts.rejected > 0 ? options.rejectFileFor(files.get(0)) : null);
        } catch (RuntimeException e) {
            if (existing == null) {
                catalog.drop(tableName, true);
            }
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    private Schema inferSchema(Path file) {
        return switch (options.formatOf(file)) {
            case CSV -> SchemaInference.csv(file, options.dialectOf(file));
            case ARROW, PARQUET -> {
                try (BufferAllocator allocator = parentAllocator.newChildAllocator("infer", 0, Long.MAX_VALUE)) {
                    try (ArrowFileReaders.Opened opened = openArrow(file, allocator)) {
                        yield SchemaInference.arrow(file, opened.reader().getVectorSchemaRoot().getSchema());
                    } catch (IOException e) {
                        throw InputFiles.failure(file, e);
                    }
                }
            }
        };
    }

    private ArrowFileReaders.Opened openArrow(Path file, BufferAllocator allocator) {
        return options.formatOf(file) == LoadFormat.PARQUET ? ArrowFileReaders.parquet(file, allocator)
                : ArrowFileReaders.ipc(file, allocator);
    }

    private LoadSource open(Path file, Schema schema, ExecutorService pool, BufferAllocator allocator) {
        return switch (options.formatOf(file)) {
            case CSV -> new CsvSource(file, options.dialectOf(file), schema, options.maxErrors() > 0, pool, 2 * threads, allocator);
            case ARROW, PARQUET -> {
                yield new ArrowSource(file, openArrow(file, allocator), schema, allocator, size(file));
            }
        };
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
    }

    /**
     * The batches of all files in order, as the stream the table's append consumes; rejected
     * rows go to the reject file on the way, and one too many fails the stream, so the append
     * commits nothing.
     */
    private final class Parts implements BatchStream {
        private final Schema schema;
        private final List<Path> files;
        private final ExecutorService pool;
        private final BufferAllocator allocator;
        private int nextFile;
        private LoadSource source;
        private long bytesOfDoneFiles;
        private long rows;
        private long rejected;
        private OutputStream rejectFile;

        Parts(Schema schema, List<Path> files, ExecutorService pool, BufferAllocator allocator) {
            this.schema = schema;
            this.files = files;
            this.pool = pool;
            this.allocator = allocator;
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public Batch next() {
            while (true) {
                if (source == null) {
                    if (nextFile == files.size()) {
                        return null;
                    }
                    source = open(files.get(nextFile++), schema, pool, allocator);
                }
                LoadedPart part = source.next();
                if (part == null) {
                    bytesOfDoneFiles += source.bytesRead();
                    closeSource();
                    continue;
                }
                try {
                    reject(part.rejections());
                } catch (RuntimeException e) {
                    part.close();
                    throw e;
                }
                if (part.batch() != null) {
                    rows += part.batch().rowCount();
                    progress.update(bytesOfDoneFiles + source.bytesRead(), rows);
                    return part.batch();
                }
            }
        }

        private void reject(List<Rejection> rejections) {
            for (Rejection r : rejections) {
                rejected++;
                if (rejected > options.maxErrors()) {
                    throw r.exception(" (" + rejected + " rows rejected, more than the " + options.maxErrors() + " allowed)");
                }
                Path file = options.rejectFileFor(files.get(0));
                try {
                    if (rejectFile == null) {
                        rejectFile = Files.newOutputStream(file);
                    }
                    rejectFile.write(r.record());
                    if (r.record().length == 0 || r.record()[r.record().length - 1] != '\n') {
                        rejectFile.write('\n');
                    }
                } catch (IOException e) {
                    throw new WarpException(SqlState.IO_ERROR, "cannot write the reject file " + file + ": " + e.getMessage(), e);
                }
            }
        }

        private void closeSource() {
            LoadSource s = source;
            source = null;
            s.close();
        }

        @Override
        public void close() {
            try {
                if (source != null) {
                    closeSource();
                }
            } finally {
                if (rejectFile != null) {
                    try {
                        rejectFile.close();
                    } catch (IOException e) {
                        throw new WarpException(SqlState.IO_ERROR, "cannot write the reject file: " + e.getMessage(), e);
                    }
                }
            }
        }
    }
}
