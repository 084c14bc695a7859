package io.warpdb.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.jni.NativeMemoryPool;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/** Opens Arrow IPC and Parquet files as Arrow readers. */
final class ArrowFileReaders {
    /** Rows per record batch read from Parquet. */
    private static final int PARQUET_BATCH_ROWS = 1 << 16;
    private static final byte[] ARROW_FILE_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);

    /** A reader and what it reads from (null when nothing), closed after it. */
    record Opened(ArrowReader reader, AutoCloseable resources) implements AutoCloseable {
        @Override
        public void close() {
            try {
                reader.close();
                if (resources != null) {
                    resources.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException("cannot close an Arrow reader", e);
            }
        }
    }

    private ArrowFileReaders() {
    }

    /**
     * An Arrow IPC file (random-access format, by its magic) or stream. The file format is read
     * through its channel; the stream format from an input stream.
     */
    static Opened ipc(Path file, BufferAllocator allocator) {
        try {
            byte[] head = new byte[ARROW_FILE_MAGIC.length];
            try (InputStream in = Files.newInputStream(file)) {
                head = in.readNBytes(head.length);
            }
            if (Arrays.equals(head, ARROW_FILE_MAGIC)) {
                return new Opened(new ArrowFileReader(FileChannel.open(file, StandardOpenOption.READ), allocator), null);
            }
            return new Opened(new ArrowStreamReader(Files.newInputStream(file), allocator), null);
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
    }

    /**
     * A Parquet file through Arrow Dataset (native code, bundled in its jar): a scan of all
     * columns. The dataset, its factory and the scanner stay open until the reader is done.
     */
    static Opened parquet(Path file, BufferAllocator allocator) {
        FileSystemDatasetFactory factory = new FileSystemDatasetFactory(allocator, NativeMemoryPool.getDefault(),
                FileFormat.PARQUET, file.toAbsolutePath().toUri().toString());
        Dataset dataset = null;
        Scanner scanner = null;
        try {
            dataset = factory.finish();
            scanner = dataset.newScan(new ScanOptions(PARQUET_BATCH_ROWS));
            ArrowReader reader = scanner.scanBatches();
            Scanner openScanner = scanner;
            Dataset openDataset = dataset;
            return new Opened(reader, () -> {
                openScanner.close();
                openDataset.close();
                factory.close();
            });
        } catch (RuntimeException e) {
            closeAll(scanner, dataset, factory);
            throw e;
        }
    }

    private static void closeAll(AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception e) {
                    // already failing; the first failure is the one reported
                }
            }
        }
    }
}
