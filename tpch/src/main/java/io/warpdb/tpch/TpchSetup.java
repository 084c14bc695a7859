package io.warpdb.tpch;

import io.warpdb.sql.Database;

/**
 * A WarpDB database and a DuckDB reference, both holding the same TPC-H data: what
 * {@code tpch run} and {@code tpch bench} work on. Closing frees both.
 */
public final class TpchSetup implements AutoCloseable {
    private final Database database;
    private final DuckDbReference reference;
    private final LoadReport warpdbLoad;
    private final LoadReport referenceLoad;

    private TpchSetup(Database database, DuckDbReference reference, LoadReport warpdbLoad, LoadReport referenceLoad) {
        this.database = database;
        this.reference = reference;
        this.warpdbLoad = warpdbLoad;
        this.referenceLoad = referenceLoad;
    }

    /** Loads {@code data} into a new in-memory WarpDB database and a new DuckDB, each with {@code threads} threads. */
    public static TpchSetup load(TpchData data, int threads) {
        return open(Database.inMemory("tpch"), data, threads);
    }

    /**
     * Takes over {@code database}, loading {@code data} into it unless it already holds all the
     * TPC-H tables (a durable database loaded by an earlier run), and loads a new DuckDB.
     */
    public static TpchSetup open(Database database, TpchData data, int threads) {
        DuckDbReference reference = null;
        try {
            LoadReport warpdbLoad = null;
            if (!TpchLoader.isLoaded(database)) {
                TpchLoader.drop(database);
                warpdbLoad = TpchLoader.load(database, data, threads);
            }
            reference = DuckDbReference.open();
            LoadReport referenceLoad = reference.load(data, threads);
            return new TpchSetup(database, reference, warpdbLoad, referenceLoad);
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
