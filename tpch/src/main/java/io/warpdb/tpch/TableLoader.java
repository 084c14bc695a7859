package io.warpdb.tpch;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.OrderedParallel;
import io.warpdb.sql.Database;
import io.warpdb.sql.PrimaryKeys;
import io.warpdb.sql.TableProperties;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Loads a benchmark's tables into a WarpDB database. Parts of a table are built into batches on
 * {@code threads} threads while another appends them, in part order, to the table in one commit
 * per table. Up to {@link #TABLES_AT_ONCE} tables load at the same time, largest first as the
 * benchmark lists them, so that the small tables' loads and each table's serial tail (its last
 * parts, its last segments' encoding, its commit) run beside the largest table's instead of after
 * it. If any table fails, the tables this load created are dropped.
 */
public final class TableLoader {
    /** Tables loading at once: enough to keep the cores of a large host busy past the largest table's tail. */
    static final int TABLES_AT_ONCE = 4;

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
        List<String> created = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = OrderedParallel.pool(threads, "table-load");
        ExecutorService appenders = Executors.newFixedThreadPool(Math.max(1, Math.min(TABLES_AT_ONCE, tables.size())),
                DaemonThreads.named("table-append"));
        try (BufferAllocator allocator = database.allocator().newChildAllocator("table-load", 0, Long.MAX_VALUE)) {
            List<Future<LoadReport.TableLoad>> loads = new ArrayList<>();
            for (TableParts table : tables) {
                loads.add(appenders.submit(() -> loadOne(database, table, pool, threads, allocator, created)));
            }
            List<LoadReport.TableLoad> loaded = new ArrayList<>();
            RuntimeException failure = null;
            for (Future<LoadReport.TableLoad> load : loads) {
                try {
                    loaded.add(load.get());
                } catch (ExecutionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else if (failure != cause) {
                        failure.addSuppressed(cause);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    appenders.shutdownNow();
                    throw new IllegalStateException("interrupted while loading", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            return new LoadReport(source + " -> WarpDB", loaded, System.nanoTime() - start);
        } catch (RuntimeException e) {
            created.forEach(name -> TableProperties.dropTable(database.catalog(), name, true));
            throw e;
        } finally {
            appenders.shutdownNow();
            pool.shutdownNow();
        }
    }

    /** Creates {@code table} and appends its batches, built on {@code pool}, in one commit; adds its name to {@code created}. */
    private static LoadReport.TableLoad loadOne(Database database, TableParts table, ExecutorService pool, int threads,
            BufferAllocator allocator, List<String> created) {
        long t0 = System.nanoTime();
        Table target = database.catalog().create(table.name(), table.schema(), false);
        created.add(table.name());
        PrimaryKeys.set(database.catalog(), table.name(), table.primaryKey());
        long rows;
        try (BatchStream batches = batches(table, pool, threads, allocator)) {
            rows = target.append(batches);
        }
        return new LoadReport.TableLoad(table.name(), rows, System.nanoTime() - t0);
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
