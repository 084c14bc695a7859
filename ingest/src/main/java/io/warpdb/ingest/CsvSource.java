package io.warpdb.ingest;

import io.warpdb.core.types.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A CSV file (gzip-compressed or not) read as parts: one thread cuts it into chunks at record
 * boundaries, the pool parses chunks in parallel, and parts come back in file order.
 */
final class CsvSource implements LoadSource {
    /** Bytes per chunk: large enough to amortize a task, small enough to keep every core busy. */
    static final int CHUNK_BYTES = 4 << 20;

    private final Path file;
    private final InputFiles.CountingStream counted;
    private final InputStream in;
    private final CsvChunker chunker;
    private final OrderedParallel<LoadedPart> parts;
    /** Assemblies free for the next chunk: each parse task takes one and puts it back, so their arrays serve many chunks. */
    private final Queue<BatchAssembly> assemblies = new ConcurrentLinkedQueue<>();

    CsvSource(Path file, CsvDialect dialect, Schema schema, boolean reject, ExecutorService pool, int window,
            BufferAllocator allocator) {
        this(file, InputFiles.open(file), true, Long.MAX_VALUE, dialect, new CsvParser(file.toString(), dialect), schema, reject, pool,
                window, allocator);
    }

    /**
     * The records of {@code counted}, a stream of the file's bytes from a record's start, up to the
     * end of the record holding the line end at or first after offset {@code stopAt} of the stream
     * ({@link CsvChunker}). From the file's start ({@code atFileStart}), gzip data is decompressed
     * and the first record is the header when {@code dialect} says so.
     */
    CsvSource(Path file, InputFiles.CountingStream counted, boolean atFileStart, long stopAt, CsvDialect dialect, CsvParser parser,
            Schema schema, boolean reject, ExecutorService pool, int window, BufferAllocator allocator) {
        this.file = file;
        this.counted = counted;
        try {
            this.in = atFileStart ? InputFiles.content(file, counted) : counted;
            this.chunker = new CsvChunker(in, dialect, CHUNK_BYTES, stopAt);
            this.parts = new OrderedParallel<>(pool, window, () -> task(chunker, parser, schema, dialect.header() && atFileStart, reject,
                    allocator), LoadedPart::close);
        } catch (RuntimeException e) {
            close(counted);
            throw e;
        }
    }

    /** The bytes of the records cut so far: once {@link #next} returned null, where the last record ended. */
    long consumed() {
        return chunker.consumed();
    }

    private Callable<LoadedPart> task(CsvChunker chunker, CsvParser parser, Schema schema, boolean header, boolean reject,
            BufferAllocator allocator) {
        CsvChunker.Chunk chunk;
        try {
            chunk = chunker.next();
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
        if (chunk == null) {
            return null;
        }
        return () -> {
            BatchAssembly batch = assemblies.poll();
            if (batch == null) {
                batch = new BatchAssembly(schema, (int) chunk.lines() + 1, allocator);
            } else {
                batch.reset();
            }
            LoadedPart part = parser.parse(chunk, batch, header && chunk.index() == 0, reject);
            assemblies.add(batch);
            chunker.recycle(chunk);
            return part;
        };
    }

    @Override
    public LoadedPart next() {
        return parts.hasNext() ? parts.next() : null;
    }

    @Override
    public long bytesRead() {
        return counted.count();
    }

    @Override
    public void close() {
        try {
            parts.close();
        } finally {
            close(in);
        }
    }

    private void close(InputStream stream) {
        try {
            stream.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file, e);
        }
    }
}
