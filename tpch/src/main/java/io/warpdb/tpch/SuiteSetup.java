package io.warpdb.tpch;

import io.warpdb.sql.Database;
import java.nio.file.Path;
import java.util.List;

/**
 * A WarpDB database and a DuckDB reference, both holding the same benchmark data (TPC-H,
 * TPC-DS): what {@code tpch run|bench} and {@code tpcds run|bench} work on. Closing frees both.
 */
public final class SuiteSetup implements AutoCloseable {
    private final Database database;
    private final DuckDbReference reference;
    private final LoadReport warpdbLoad;
    private final LoadReport referenceLoad;

    private SuiteSetup(Database database, DuckDbReference reference, LoadReport warpdbLoad, LoadReport referenceLoad) {
        this.database = database;
        this.reference = reference;
        this.warpdbLoad = warpdbLoad;
        this.referenceLoad = referenceLoad;
    }

    /** Loads all TPC-H tables of {@code data} into a new in-memory WarpDB database and a new DuckDB, each with {@code threads} threads. */
    public static SuiteSetup loadTpch(TpchData data, int threads) {
        return open(Database.inMemory("tpch"), TpchLoader.parts(data, TpchSchema.tables()), threads, data.describe());
    }

    /**
     * Takes over {@code database}, loading {@code tables} into it unless it already holds them
     * (a durable database loaded by an earlier run), and loads a new DuckDB with the same tables;
     * {@code source} names the data in the load reports.
     */
    public static SuiteSetup open(Database database, List<TableParts> tables, int threads, String source) {
        return open(database, tables, threads, source, null);
    }

    /**
     * As {@link #open(Database, List, int, String)}, DuckDB's copy of the data kept in {@code duckdbFile}
     * (null: in memory) and loaded only where that file lacks a table, so that a later run on the
     * same data skips DuckDB's load (at SF 100, 50 s a run).
     */
    public static SuiteSetup open(Database database, List<TableParts> tables, int threads, String source, Path duckdbFile) {
        DuckDbReference reference = null;
        try {
            LoadReport warpdbLoad = TableLoader.loadMissing(database, tables, threads, source);
            reference = duckdbFile == null ? DuckDbReference.open() : DuckDbReference.open(duckdbFile);
            LoadReport referenceLoad = duckdbFile == null ? reference.load(tables, threads, source)
                    : reference.loadMissing(tables, threads, source);
            return new SuiteSetup(database, reference, warpdbLoad, referenceLoad);
        } catch (RuntimeException e) {
            if (reference != null) {
                reference.close();
            }
            database.close();
            throw e;
        }
    }

    public Database database() {
        return database;
    }

    public DuckDbReference reference() {
        return reference;
    }

    /** The WarpDB load, or null when the database was loaded already. */
    public LoadReport warpdbLoad() {
        return warpdbLoad;
    }

    /** DuckDB's load, or null when its database file held every table already. */
    public LoadReport referenceLoad() {
        return referenceLoad;
    }

    /** A new WarpDB query target on the executor setting {@code auto}, {@code cpu} or {@code gpu}; the caller closes it. */
    public WarpDbTarget warpdb(String executor) {
        return new WarpDbTarget(database, executor);
    }

    @Override
    public void close() {
        try {
            reference.close();
        } finally {
            database.close();
        }
    }
}
