package io.warpdb.tpch;

import io.warpdb.sql.Database;
import io.warpdb.sql.TableProperties;
import java.util.List;

/**
 * Loads the eight TPC-H tables into a WarpDB database, through {@link TableLoader}: in parallel
 * parts, one commit per table; if any table fails, the tables this load created are dropped.
 */
public final class TpchLoader {
    private TpchLoader() {
    }

    /** Whether the database holds each of these tables (each is committed whole, so present means loaded). */
    public static boolean isLoaded(Database database, List<TpchSchema.Table> tables) {
        return tables.stream().allMatch(t -> database.catalog().table(t.name()).isPresent());
    }

    /**
     * Drops whatever TPC-H tables the database holds, e.g. those of a load that was interrupted, and
     * their primary keys, so that a table made later under one of their names declares none.
     */
    public static void drop(Database database) {
        TpchSchema.tables().forEach(t -> TableProperties.dropTable(database.catalog(), t.name(), true));
    }

    /**
     * Loads {@code tables} from {@code data} unless {@code database} already holds them (a durable
     * database loaded by an earlier run); then null. Partly loaded data is dropped first.
     */
    public static LoadReport loadMissing(Database database, TpchData data, int threads, List<TpchSchema.Table> tables) {
        if (isLoaded(database, tables)) {
            return null;
        }
        drop(database);
        return load(database, data, threads, tables);
    }

    /** Creates and fills the TPC-H tables (which must not exist yet) from {@code data}. */
    public static LoadReport load(Database database, TpchData data, int threads) {
        return load(database, data, threads, TpchSchema.tables());
    }

    /** Creates and fills these TPC-H tables (which must not exist yet) from {@code data}. */
    public static LoadReport load(Database database, TpchData data, int threads, List<TpchSchema.Table> tables) {
        return TableLoader.load(database, parts(data, tables), threads, data.describe());
    }

    /** These tables of {@code data}, for {@link TableLoader}, {@link DuckDbReference} and {@link SuiteSetup}. */
    public static List<TableParts> parts(TpchData data, List<TpchSchema.Table> tables) {
        return tables.stream().map(t -> data.tableParts(t).withPrimaryKey(t.primaryKey())).toList();
    }
}
