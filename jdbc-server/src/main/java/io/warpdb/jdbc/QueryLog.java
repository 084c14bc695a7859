package io.warpdb.jdbc;

import io.warpdb.core.error.WarpException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * One line per statement a server runs, appended to a file: when it started, the connection,
 * how long it took (including its wait in the {@link QueryGate} queue), {@code ok} or the
 * SQLSTATE it failed with, and the statement on one line. Lines are flushed as written, so the
 * log is complete up to a crash.
 */
final class QueryLog implements AutoCloseable {
    private final BufferedWriter out;

    private QueryLog(BufferedWriter out) {
        this.out = out;
    }

    /** Appends to {@code file}; null logs nothing. */
    static QueryLog to(Path file) {
        if (file == null) {
            return new QueryLog(null);
        }
        try {
            return new QueryLog(Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the query log " + file, e);
        }
    }

    <T> T run(String connection, String sql, Supplier<T> statement) {
        if (out == null) {
            return statement.get();
        }
        Instant start = Instant.now();
        long t0 = System.nanoTime();
        String outcome = "ok";
        try {
            return statement.get();
        } catch (WarpException e) {
            outcome = e.sqlState();
            throw e;
        } catch (RuntimeException | Error e) {
            outcome = "error";
            throw e;
        } finally {
            write(String.format(Locale.ROOT, "%s connection=%s %.1f ms %s %s", start, connection, (System.nanoTime() - t0) / 1e6,
                    outcome, sql.strip().replaceAll("\\s+", " ")));
        }
    }

    private synchronized void write(String line) {
        try {
            out.write(line);
            out.newLine();
            out.flush();
        } catch (IOException e) {
            // A full disk must not fail the statement; the log says so once it can be written again.
            System.err.println("warpdb: cannot write the query log: " + e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                System.err.println("warpdb: cannot close the query log: " + e.getMessage());
            }
        }
    }
}
