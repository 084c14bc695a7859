package io.warpdb.tools;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import io.warpdb.tpch.SuiteSetup;
import io.warpdb.tpch.TableParts;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The options every subcommand of a bundled benchmark suite ({@code tpch}, {@code tpcds}) shares:
 * scale factor, where the WarpDB database lives, loader threads; and the setup of a run on them.
 */
abstract class SuiteOptions {
    @Option(names = "--sf", required = true, description = "Scale factor, e.g. 0.01, 1, 10.")
    double scaleFactor;

    @Option(names = "--data", description = "WarpDB database directory (default: data/<suite>-sf<SF>).")
    Path data;

    @Option(names = "--in-memory", description = "Load into an in-memory database (nothing on disk; loaded on every run).")
    boolean inMemory;

    @Option(names = "--threads", description = "Loader threads (default: number of cores).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--duckdb-file", paramLabel = "FILE",
            description = "Keep DuckDB's copy of the data in this database file, loaded where it lacks a table and reused by later"
                    + " runs (default: an in-memory DuckDB, loaded on every run).")
    Path duckdbFile;

    /** The suite's name: the in-memory database's and the default directory's. */
    abstract String suite();

    Path dataDirectory() {
        return data != null ? data : Path.of("data", suite() + "-sf" + format(scaleFactor));
    }

    /** Where the data lives, for messages. */
    String where() {
        return inMemory ? "memory" : dataDirectory().toString();
    }

    Database open() {
        if (inMemory && data != null) {
            throw new IllegalArgumentException("--in-memory and --data exclude each other");
        }
        return inMemory ? Database.inMemory(suite()) : Database.open(dataDirectory(), StorageOptions.defaults());
    }

    /**
     * The database with {@code tables} (loaded now unless an earlier run did) and DuckDB loaded with
     * the same data; the loads are printed. Each executor is checked first, so that an unavailable
     * one fails before minutes of loading.
     */
    SuiteSetup setup(List<TableParts> tables, String source, List<String> executors) {
        Database database = open();
        try {
            executors.stream().filter(e -> !e.equalsIgnoreCase("auto")).forEach(e -> database.executors().require(e));
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        SuiteSetup setup = SuiteSetup.open(database, tables, threads, source, duckdbFile);
        System.out.print(setup.warpdbLoad() != null ? setup.warpdbLoad().format() : "using the data loaded in " + where() + "\n");
        System.out.print(setup.referenceLoad() != null ? setup.referenceLoad().format() : "DuckDB: using the tables in " + duckdbFile + "\n");
        return setup;
    }

    static String format(double sf) {
        return String.format(Locale.ROOT, "%s", sf).replaceAll("\\.0$", "");
    }
}
