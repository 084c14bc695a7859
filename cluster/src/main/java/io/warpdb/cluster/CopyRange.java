package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.CsvRange;
import io.warpdb.ingest.LoadOptions;
import io.warpdb.ingest.Loader;
import io.warpdb.ingest.OrderedParallel;
import io.warpdb.storage.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A node's part of a parallel COPY ({@link CopyRangeTicket}): it parses its byte range of the
 * file on its own threads ({@link CsvRange}, as a load of the whole file parses), hashes each
 * batch into one part per node by the table's distribution columns on other threads (as {@link
 * ShardRows} does; a replicated table's rows go whole to every node), and stages each node's part
 * there while it parses: its own in its shard, the others' over the exchange (one staging per
 * node, each fed through a bounded {@link StagingQueue}). Any failure fails every staging, so
 * that none stages a part of the range; the coordinator then aborts the load everywhere. It answers
 * one row of {@link #LOADED} per node.
 */
final class CopyRange {
    /** The size of the ticket's file on the node; -1 when it has none it can read. */
    static final Schema SEEN = new Schema(List.of(new Field("size", DataType.BIGINT)));
    /**
     * Per node, in the members' order: where the range's records started and ended in the file, the
     * rows parsed (the same in every row), and the rows staged on that node.
     */
    static final Schema LOADED = new Schema(List.of(new Field("start", DataType.BIGINT), new Field("end", DataType.BIGINT),
            new Field("parsed", DataType.BIGINT), new Field("staged", DataType.BIGINT)));
    /** Runs the stagings, one per node and range. */
    private static final ExecutorService STAGERS = DaemonThreads.cachedPool("copy-range-stage");

    private CopyRange() {
    }

    /** What a node answers about the ticket's file: one row of {@link #SEEN}. */
    static BatchStream seen(CopyRangeTicket ticket, BufferAllocator allocator) {
        return Batches.of(SEEN, List.of(Batches.longRow(SEEN, allocator, sizeOf(Path.of(ticket.file())))));
    }

    /** The size of {@code file} on this node; -1 when it cannot read it. */
    static long sizeOf(Path file) {
        try {
            return Files.isReadable(file) && Files.isRegularFile(file) ? Files.size(file) : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Loads the ticket's range as above; answers {@link #LOADED}. Fails with the first failure: a
     * bad value's names the file, line and column.
     */
    static BatchStream run(CopyRangeTicket ticket, ShardStore shard, Exchange exchange, List<Member> members,
            BufferAllocator allocator) {
        Path file = Path.of(ticket.file());
        long size = sizeOf(file);
        if (size != ticket.size()) {
            throw new WarpException(SqlState.UNDEFINED_FILE, "node " + shard.nodeId() + " sees " + file + (size < 0 ? " not at all"
                    : " of " + size + " bytes") + ", the coordinator one of " + ticket.size());
        }
        Table table = shard.database().catalog().table(ticket.table())
                .orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + ticket.table() + " does not exist"));
        long logIndex = shard.logApplied();
        List<StagingQueue> queues = new ArrayList<>();
        List<CompletableFuture<Long>> stagings = new ArrayList<>();
        for (Member node : members) {
            StagingQueue queue = new StagingQueue(table.schema());
            queues.add(queue);
            stagings.add(CompletableFuture.supplyAsync(() -> {
                try (queue) {
                    if (node.id().equals(shard.nodeId())) {
                        shard.stage(ticket.load(), table.name(), queue);
                    } else {
                        exchange.stage(node, logIndex, ticket.load(), table.name(), queue);
                    }
                    return queue.rowsReturned();
                }
            }, STAGERS));
        }
        long[] counts = new long[3]; // start, end, rows parsed
        RuntimeException failure = null;
        boolean parsed = false;
        try {
            parsed = parse(ticket, file, table.schema(), queues, allocator, counts);
        } catch (RuntimeException e) {
            failure = e;
        }
        if (parsed) {
            queues.forEach(StagingQueue::finish);
        } else {
            RuntimeException stop = failure != null ? failure
                    : new WarpException(SqlState.INTERNAL_ERROR, "a staging of load " + ticket.load() + " ended early");
            queues.forEach(q -> q.fail(stop));
        }
        // every staging is over before the answer: an abort after it finds nothing still on its way
        long[] staged = new long[members.size()];
        for (int n = 0; n < members.size(); n++) {
            try {
                staged[n] = stagings.get(n).join();
            } catch (CompletionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (!parsed) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "a staging of load " + ticket.load() + " ended before its rows did");
        }
        List<Batch> rows = new ArrayList<>();
        for (long s : staged) {
            rows.add(Batches.longRow(LOADED, allocator, counts[0], counts[1], counts[2], s));
        }
        return Batches.of(LOADED, rows);
    }

    /**
     * Parses the range into {@code queues}, one part of each batch per node, hashed on a pool beside
     * the parse; fills {@code counts} with the range's start, end and rows. Returns false, early,
     * when a staging has ended (failed: its error is the range's).
     */
    private static boolean parse(CopyRangeTicket ticket, Path file, Schema schema, List<StagingQueue> queues, BufferAllocator allocator,
            long[] counts) {
        int threads = Loader.defaultThreads();
        int nodes = queues.size();
        ExecutorService hashers = OrderedParallel.pool(threads, "copy-range-hash");
        // parsed batches whose hashing has not started: stopping early skips those tasks, which then close nothing
        Set<Batch> unhashed = ConcurrentHashMap.newKeySet();
        try (CsvRange range = CsvRange.open(file, LoadOptions.of(ticket.options()), schema, ticket.from(), ticket.atRecordStart(),
                ticket.to(), threads, allocator);
                OrderedParallel<List<Batch>> parts = new OrderedParallel<>(hashers, 2 * threads, () -> {
                    Batch batch = range.next();
                    if (batch == null) {
                        return null;
                    }
                    unhashed.add(batch);
                    return () -> {
                        unhashed.remove(batch);
                        return split(batch, ticket.keys(), nodes, allocator);
                    };
                }, split -> split.forEach(Batch::close))) {
            long rows = 0;
            while (parts.hasNext()) {
                List<Batch> split = parts.next();
                rows += ticket.keys().isEmpty() ? split.get(0).rowCount() : split.stream().mapToLong(Batch::rowCount).sum();
                for (int n = 0; n < nodes; n++) {
                    Batch part = split.get(n);
                    if (part.rowCount() == 0) {
                        part.close();
                    } else if (!queues.get(n).put(part)) {
                        split.subList(n + 1, nodes).forEach(Batch::close);
                        return false;
                    }
                }
            }
            counts[0] = range.start();
            counts[1] = range.end();
            counts[2] = rows;
            return true;
        } finally {
            unhashed.forEach(Batch::close);
            hashers.shutdownNow();
        }
    }

    /**
     * {@code batch}'s rows, one batch per node: by the murmur3 hash of {@code keys} as {@link
     * HashPartitioner} places them (empty parts as empty batches), or all of them to every node when
     * there are no keys. Closes {@code batch}.
     */
    private static List<Batch> split(Batch batch, List<Integer> keys, int nodes, BufferAllocator allocator) {
        if (!keys.isEmpty()) {
            try (batch) {
                return HashPartitioner.cpu().split(batch, keys, nodes, allocator);
            }
        }
        List<Batch> copies = new ArrayList<>(nodes);
        copies.add(batch);
        try {
            for (int n = 1; n < nodes; n++) {
                copies.add(CpuHashPartitioner.copy(batch, allocator));
            }
        } catch (RuntimeException e) {
            copies.forEach(Batch::close);
            throw e;
        }
        return copies;
    }
}
