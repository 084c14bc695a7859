package io.warpdb.tools;

import io.warpdb.ingest.LoadOptions;
import io.warpdb.ingest.Loader;
import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code warpdb load}: bulk loads CSV, Parquet or Arrow IPC files into a table, all rows or none.
 * With {@code --data} the load runs in this process (parallel parsing, a progress bar); with
 * {@code --url} it is sent to a server as one COPY statement, which the server runs on files it
 * reads itself: absolute paths on the server's machine.
 */
@Command(name = "load", mixinStandardHelpOptions = true, description = "Bulk load CSV (also .gz and dbgen .tbl), Parquet "
        + "or Arrow IPC files into a table as one atomic commit.")
final class LoadCommand implements Callable<Integer> {
    /** Where the table is: exactly one of the two. */
    static final class Target {
        @Option(names = "--data", description = "WarpDB database directory, loaded in this process.")
        Path data;

        @Option(names = {"-u", "--url"}, description = "JDBC URL of a WarpDB server (Avatica, or Arrow Flight SQL:"
                + " jdbc:arrow-flight-sql://HOST:8815?useEncryption=false); the server reads the files (as COPY).")
        String url;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @Parameters(index = "0", description = "Table to load into.")
    String table;

    @Parameters(index = "1..*", arity = "1..*", description = "Files to load, in order.")
    List<Path> files;

    @Option(names = "--format", description = "csv, parquet or arrow (default: by file name; anything else is CSV).")
    String format;

    @Option(names = "--header", arity = "1", description = "CSV: the first line names the columns (default: true; false for .tbl).")
    Boolean header;

    @Option(names = "--delimiter", description = "CSV field delimiter (default: ',' ; '|' for .tbl); \\t for a tab.")
    String delimiter;

    @Option(names = "--quote", description = "CSV quote character (default: \").")
    String quote;

    @Option(names = "--escape", description = "CSV escape character inside quotes (default: the quote, doubled).")
    String escape;

    @Option(names = "--null", description = "CSV text of a NULL, unquoted (default: empty).")
    String nullString;

    @Option(names = "--trailing-delimiter", arity = "1", description = "CSV records end with a delimiter (default: true for .tbl).")
    Boolean trailingDelimiter;

    @Option(names = "--max-errors", description = "Rows that may be rejected (written to the reject file) before the load fails (default: 0).")
    Long maxErrors;

    @Option(names = "--reject-file", description = "Where rejected rows go (default: <first file>.rejected).")
    Path rejectFile;

    @Option(names = "--create", description = "Create the table, with a schema inferred from the first file, if it does not exist.")
    boolean create;

    @Option(names = "--threads", description = "Parsing threads (default: half the number of cores).")
    int threads = Loader.defaultThreads();

    @Option(names = "--compare-duckdb", description = "Also load the CSV files into an in-memory DuckDB with read_csv and "
            + "print both rates (benchmarking; --data only).")
    boolean compareDuckDb;

    /** The options as COPY names them, only those given. */
    Map<String, String> options() {
        Map<String, String> o = new LinkedHashMap<>();
        put(o, "FORMAT", format);
        put(o, "HEADER", header);
        put(o, "DELIMITER", delimiter);
        put(o, "QUOTE", quote);
        put(o, "ESCAPE", escape);
        put(o, "NULL", nullString);
        put(o, "TRAILING_DELIMITER", trailingDelimiter);
        put(o, "MAX_ERRORS", maxErrors);
        put(o, "REJECT_FILE", rejectFile == null ? null : rejectFile.toAbsolutePath());
        put(o, "CREATE", create ? true : null);
        return o;
    }

    private static void put(Map<String, String> options, String name, Object value) {
        if (value != null) {
            options.put(name, value.toString());
        }
    }

    @Override
    public Integer call() throws SQLException {
        PrintStream out = System.out;
        if (target.url != null) {
            if (compareDuckDb) {
                throw new IllegalArgumentException("--compare-duckdb needs --data: it times the load in this process");
            }
            String copy = LoadOptions.copyStatement(table, files, options());
            try (Connection connection = DriverManager.getConnection(target.url); Statement statement = connection.createStatement()) {
                long rows = statement.executeLargeUpdate(copy);
                out.printf(Locale.ROOT, "loaded %,d rows into %s%n", rows, table);
            }
            return 0;
        }
        LoadOptions options = LoadOptions.of(options());
        long bytes = totalBytes();
        long start = System.nanoTime();
        Loader.Result result;
        try (Database db = Database.open(target.data, StorageOptions.defaults()); LoadProgress progress = LoadProgress.of(bytes)) {
            result = new Loader(db.catalog(), db.allocator(), options, progress, threads).load(table, files);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "loaded %,d rows into %s in %.1f s: %.1f MB/s, %,.0f rows/s%n", result.rows(), table, seconds,
                bytes / 1e6 / seconds, result.rows() / seconds);
        if (result.rejected() > 0) {
            out.printf(Locale.ROOT, "rejected %,d rows, written to %s%n", result.rejected(), result.rejectFile());
        }
        if (compareDuckDb) {
            DuckDbCsvLoad duck = DuckDbCsvLoad.run(files, options);
            out.printf(Locale.ROOT, "DuckDB read_csv: %,d rows in %.1f s: %.1f MB/s; WarpDB/DuckDB: %.2f%n", duck.rows(),
                    duck.seconds(), bytes / 1e6 / duck.seconds(), duck.seconds() / seconds);
        }
        return 0;
    }

    private long totalBytes() {
        long bytes = 0;
        for (Path f : files) {
            try {
                bytes += Files.size(f);
            } catch (java.io.IOException e) {
                // the loader reports the file itself, with the right SQLSTATE
            }
        }
        return bytes;
    }

    /**
     * Progress of a load: a bar with rows/s and the time left on a terminal, else a line every
     * few seconds (logs stay readable).
     */
    private interface LoadProgress extends Loader.Progress, AutoCloseable {
        @Override
        void close();

        static LoadProgress of(long totalBytes) {
            return System.console() != null ? new Bar(totalBytes) : new Lines(totalBytes);
        }
    }

    private static final class Bar implements LoadProgress {
        private final ProgressBar bar;
        private final long start = System.nanoTime();

        Bar(long totalBytes) {
            bar = new ProgressBarBuilder().setTaskName("load").setInitialMax(Math.max(1, totalBytes / 1_000_000))
                    .setUnit(" MB", 1).setStyle(ProgressBarStyle.ASCII).showSpeed().build();
        }

        @Override
        public void update(long bytesRead, long rows) {
            bar.stepTo(bytesRead / 1_000_000);
            bar.setExtraMessage(String.format(Locale.ROOT, "%,d rows, %,.0f rows/s", rows, rows / ((System.nanoTime() - start) / 1e9)));
        }

        @Override
        public void close() {
            bar.close();
        }
    }

    private static final class Lines implements LoadProgress {
        private static final long EVERY_NANOS = 5_000_000_000L;
        private final long totalBytes;
        private final long start = System.nanoTime();
        private long last = start;

        Lines(long totalBytes) {
            this.totalBytes = totalBytes;
        }

        @Override
        public void update(long bytesRead, long rows) {
            long now = System.nanoTime();
            if (now - last < EVERY_NANOS) {
                return;
            }
            last = now;
            double seconds = (now - start) / 1e9;
            double left = bytesRead == 0 ? 0 : seconds * (totalBytes - bytesRead) / bytesRead;
            System.err.printf(Locale.ROOT, "load: %.0f%%, %,d rows, %,.0f rows/s, about %.0f s left%n",
                    100.0 * bytesRead / Math.max(1, totalBytes), rows, rows / seconds, left);
        }

        @Override
        public void close() {
            // nothing held
        }
    }
}
