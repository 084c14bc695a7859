package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Opening input files, with the SQLSTATE a client can act on when that fails. */
final class InputFiles {
    private static final int GZIP_MAGIC = 0x8b1f;

    private InputFiles() {
    }

    /** Fails unless {@code file} is a readable regular file: 58P01 missing, 42501 not readable. */
    static void check(Path file) {
        if (!Files.exists(file)) {
            throw missing(file);
        }
        if (!Files.isRegularFile(file)) {
            throw new WarpException(SqlState.IO_ERROR, "could not open file " + file + ": not a regular file");
        }
        if (!Files.isReadable(file)) {
            throw denied(file);
        }
    }

    /** A stream of the file's bytes, with a count of those read; gzip data (by its magic number) is decompressed. */
    static CountingStream open(Path file) {
        try {
            return new CountingStream(Files.newInputStream(file));
        } catch (IOException e) {
            throw failure(file, e);
        }
    }

    /** The content of {@code counted}: decompressed when it is gzip data. */
    static InputStream content(Path file, CountingStream counted) {
        try {
            BufferedInputStream in = new BufferedInputStream(counted, 1 << 16);
            in.mark(2);
            int magic = in.read() | in.read() << 8;
            in.reset();
            return magic == GZIP_MAGIC ? new GZIPInputStream(in, 1 << 16) : in;
        } catch (IOException e) {
            throw failure(file, e);
        }
    }

    /** The exception for an I/O failure reading {@code file}. */
    static WarpException failure(Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return missing(file);
        }
        if (e instanceof AccessDeniedException) {
            return denied(file);
        }
        return new WarpException(SqlState.IO_ERROR, "could not read file " + file + ": " + e.getMessage(), e);
    }

    private static WarpException missing(Path file) {
        return new WarpException(SqlState.UNDEFINED_FILE, "could not open file " + file + ": no such file");
    }

    private static WarpException denied(Path file) {
        return new WarpException(SqlState.INSUFFICIENT_PRIVILEGE, "could not open file " + file + " for reading: permission denied");
    }

    /** Counts the bytes read through it. */
    static final class CountingStream extends FilterInputStream {
        private volatile long count;

        CountingStream(InputStream in) {
            super(in);
        }

        long count() {
            return count;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
