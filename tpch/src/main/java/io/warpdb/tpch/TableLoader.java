package io.warpdb.tpch;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.OrderedParallel;
import io.warpdb.sql.Database;
import io.warpdb.sql.PrimaryKeys;
import io.warpdb.sql.TableProperties;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Loads a benchmark's tables into a WarpDB database. Parts of a table are built into batches on
 * {@code threads} threads while the calling thread appends them, in part order, to the table in
 * one commit per table. If any table fails, the tables this load created are dropped.
 */
public final class TableLoader {
    private TableLoader() {
    }

    /**
     * Loads {@code tables} unless {@code database} already holds them all (a durable database
     * loaded by an earlier run; each table is committed whole, so present means loaded); then
     * null, the tables declaring their primary keys (a database loaded before keys were kept). Those
     * of them that a partial load left are dropped first.
     */
    public static LoadReport loadMissing(Database database, List<TableParts> tables, int threads, String source) {
        if (tables.stream().allMatch(t -> database.catalog().table(t.name()).isPresent())) {
            tables.stream().filter(t -> !PrimaryKeys.of(database.catalog().properties(), t.name()).equals(t.primaryKey()))
                    .forEach(t -> PrimaryKeys.set(database.catalog(), t.name(), t.primaryKey()));
            return null;
        }
        tables.forEach(t -> TableProperties.dropTable(database.catalog(), t.name(), true));
        return load(database, tables, threads, source);
    }

    /** Creates and fills {@code tables} (which must not exist yet); {@code source} names the data in the report. */
    public static LoadReport load(Database database, List<TableParts> tables, int threads, String source) {
        long start = System.nanoTime();
        List<LoadReport.TableLoad> loaded = new ArrayList<>();
        List<String> created = new ArrayList<>();
        ExecutorService pool = OrderedParallel.pool(threads, "table-load");
        try (BufferAllocator allocator = database.allocator().newChildAllocator("table-load", 0, Long.MAX_VALUE)) {
            for (TableParts table : tables) {
                long t0 = System.nanoTime();
                Table target = database.catalog().create(table.name(), table.schema(), false);
                created.add(table.name());
                PrimaryKeys.set(database.catalog(), table.name(), table.primaryKey());
                long rows;
                try (BatchStream batches = batches(table, pool, threads, allocator)) {
                    rows = target.append(batches);
                }
                loaded.add(new LoadReport.TableLoad(table.name(), rows, System.nanoTime() - t0));
            }
        } catch (RuntimeException e) {
            created.forEach(name -> TableProperties.dropTable(database.catalog(), name, true));
            throw e;
        } finally {
            pool.shutdownNow();
        }
        return new LoadReport(source + " -> WarpDB", loaded, System.nanoTime() - start);
    }

    /** The table's parts as batches, built ahead on the pool and handed out in part order. */
    private static BatchStream batches(TableParts table, ExecutorService pool, int threads, BufferAllocator allocator) {
        Schema schema = table.schema();
        OrderedParallel<Batch> parts = new OrderedParallel<>(pool, table.parts(), 2 * threads, part -> {
            try (RowCursor rows = table.open().apply(part)) {
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
