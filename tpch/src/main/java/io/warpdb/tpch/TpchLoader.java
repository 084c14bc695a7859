package io.warpdb.tpch;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.OrderedParallel;
import io.warpdb.sql.Database;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Loads the eight TPC-H tables into a WarpDB database. Parts of a table are built into batches
 * on {@code threads} threads while the calling thread appends them, in part order, to the
 * table in one commit per table. If any table fails, the tables this load created are dropped.
 */
public final class TpchLoader {
    private TpchLoader() {
    }

    /** Whether the database holds each of these tables (each is committed whole, so present means loaded). */
    public static boolean isLoaded(Database database, List<TpchSchema.Table> tables) {
        return tables.stream().allMatch(t -> database.catalog().table(t.name()).isPresent());
    }

    /** Drops whatever TPC-H tables the database holds, e.g. those of a load that was interrupted. */
    public static void drop(Database database) {
        TpchSchema.tables().forEach(t -> database.catalog().drop(t.name(), true));
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
        long start = System.nanoTime();
        List<LoadReport.TableLoad> loaded = new ArrayList<>();
        List<String> created = new ArrayList<>();
        ExecutorService pool = OrderedParallel.pool(threads, "tpch-load");
        try (BufferAllocator allocator = database.allocator().newChildAllocator("tpch-load", 0, Long.MAX_VALUE)) {
            for (TpchSchema.Table table : tables) {
                long t0 = System.nanoTime();
                Table target = database.catalog().create(table.name(), table.schema(), false);
                created.add(table.name());
                long rows;
                try (BatchStream batches = batches(table, data, pool, threads, allocator)) {
                    rows = target.append(batches);
                }
                loaded.add(new LoadReport.TableLoad(table.name(), rows, System.nanoTime() - t0));
            }
        } catch (RuntimeException e) {
            created.forEach(name -> database.catalog().drop(name, true));
            throw e;
        } finally {
            pool.shutdownNow();
        }
        return new LoadReport(data.describe() + " -> WarpDB", loaded, System.nanoTime() - start);
    }

    /** The table's parts as batches, built ahead on the pool and handed out in part order. */
    private static BatchStream batches(TpchSchema.Table table, TpchData data, ExecutorService pool, int threads,
            BufferAllocator allocator) {
        Schema schema = table.schema();
        OrderedParallel<Batch> parts = new OrderedParallel<>(pool, data.parts(table), 2 * threads, part -> {
            try (RowCursor rows = data.open(table, part)) {
                return BatchBuilder.read(schema, rows, allocator);
            }
        }, Batch::close);
        return new BatchStream() {
            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public Batch next() {
                return parts.hasNext() ? parts.next() : null;
            }

            @Override
            public void close() {
                parts.close();
            }
        };
    }
}
