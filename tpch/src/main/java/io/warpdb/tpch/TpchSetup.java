package io.warpdb.tpch;

import io.warpdb.sql.Database;
import java.util.List;

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
        return open(Database.inMemory("tpch"), data, threads, TpchSchema.tables());
    }

    /**
     * Takes over {@code database}, loading {@code tables} from {@code data} into it unless it
     * already holds them (a durable database loaded by an earlier run), and loads a new DuckDB
     * with the same tables.
     */
    public static TpchSetup open(Database database, TpchData data, int threads, List<TpchSchema.Table> tables) {
        DuckDbReference reference = null;
        try {
            LoadReport warpdbLoad = TpchLoader.loadMissing(database, data, threads, tables);
            reference = DuckDbReference.open();
            LoadReport referenceLoad = reference.load(data, threads, tables);
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
