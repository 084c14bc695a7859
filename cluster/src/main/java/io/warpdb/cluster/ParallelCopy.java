package io.warpdb.cluster;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.ingest.CsvRange;
import io.warpdb.ingest.LoadOptions;
import io.warpdb.sql.ddl.DdlStatement;
import io.warpdb.storage.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A COPY from text files that every node reads (nodes of one host, or a shared file system; a
 * relative name is resolved by each node, as each would resolve it alone), parsed by every node
 * at once: each file is cut into one byte range per node, and every node loads its range
 * ({@link CopyRange}: parses it on its cores, hashes its rows and stages each node's part there)
 * under the coordinator's load, whose COMMIT then sums what each node staged.
 * A range starts after the first line end at or after its offset, which is a record's start
 * unless the line end lies inside a quoted field; a range's start is right when it is where the
 * range before it ended (the first range starts at 0), which the coordinator checks once every
 * range is loaded. A range that started wrong (its rows, or its error, are then not to be trusted)
 * makes that attempt {@link Misaligned}: the coordinator aborts its load and loads again under a
 * new one, the range starting where the one before it ended. A range whose start is right and
 * that failed fails the COPY with its error (a bad value names the file, line and column).
 */
final class ParallelCopy {
    private static final Logger LOG = LoggerFactory.getLogger(ParallelCopy.class);
    /** Asks the nodes, one thread per node and request. */
    private static final ExecutorService REQUESTS = DaemonThreads.cachedPool("parallel-copy");

    private final ClusterConfig config;
    private final ShardStore shard;
    private final Exchange exchange;
    private final Table table;
    private final List<Integer> keys;
    private final DdlStatement.Copy copy;
    private final List<Path> files;
    private final List<Long> sizes;
    /** Per file, where each range begins, and whether that is known to be a record's start. */
    private final List<long[]> froms = new ArrayList<>();
    private final List<boolean[]> exact = new ArrayList<>();
    private long rows;
    /** Attempts made: each but the last corrects a range, so more than one per range means the files changed meanwhile. */
    private int attempts;

    /** A range of an attempt started where the range before it did not end: the attempt is aborted and made again. */
    static final class Misaligned extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Misaligned(String message) {
            super(message, null, false, false);
        }
    }

    private ParallelCopy(ClusterConfig config, ShardStore shard, Exchange exchange, Table table, List<Integer> keys,
            DdlStatement.Copy copy, List<Path> files, List<Long> sizes) {
        this.config = config;
        this.shard = shard;
        this.exchange = exchange;
        this.table = table;
        this.keys = keys;
        this.copy = copy;
        this.files = files;
        this.sizes = sizes;
        int nodes = config.members().size();
        for (long size : sizes) {
            long[] from = new long[nodes];
            for (int n = 0; n < nodes; n++) {
                from[n] = size * n / nodes;
            }
            froms.add(from);
            boolean[] known = new boolean[nodes];
            known[0] = true;
            exact.add(known);
        }
    }

    /**
     * The parallel COPY of {@code copy} into {@code table} (distributed by {@code keys}, none for a
     * replicated table), or empty, saying why in the log, where the coordinator must parse the files
     * itself: another format than uncompressed text, rejected rows allowed (MAX_ERRORS: a count over
     * the whole load), or a file that some node does not see with the coordinator's size.
     */
    static Optional<ParallelCopy> plan(ClusterConfig config, ShardStore shard, Exchange exchange, Table table, List<Integer> keys,
            DdlStatement.Copy copy) {
        LoadOptions options = LoadOptions.of(copy.options());
        List<Path> files = copy.files().stream().map(Path::of).toList();
        if (files.isEmpty() || options.maxErrors() > 0 || options.create()) {
            LOG.info("COPY into {} is parsed on this node: MAX_ERRORS and CREATE take a load of the whole input", table.name());
            return Optional.empty();
        }
        List<Long> sizes = new ArrayList<>();
        for (Path file : files) {
            long size = CopyRange.sizeOf(file);
            if (size < 0 || !CsvRange.splittable(file, options)) {
                LOG.info("COPY into {} is parsed on this node: {} is {}", table.name(), file, size < 0 ? "not readable here"
                        : "not uncompressed text");
                return Optional.empty();
            }
            Map<String, Long> seen = sizesSeen(config, shard, exchange, file);
            for (Map.Entry<String, Long> node : seen.entrySet()) {
                if (node.getValue() != size) {
                    LOG.warn("COPY into {} is parsed on this node, not by every node: node {} sees {} {}, this node {} bytes",
                            table.name(), node.getKey(), file, node.getValue() < 0 ? "not at all" : "of " + node.getValue() + " bytes", size);
                    return Optional.empty();
                }
            }
            sizes.add(size);
        }
        return Optional.of(new ParallelCopy(config, shard, exchange, table, keys, copy, files, sizes));
    }

    /** The size of {@code file} on every other node, by node id (-1: it has none it can read). */
    private static Map<String, Long> sizesSeen(ClusterConfig config, ShardStore shard, Exchange exchange, Path file) {
        String ticket = CopyRangeTicket.sizeOf(file.toString()).text();
        long logIndex = shard.logApplied();
        Map<String, CompletableFuture<Long>> asked = new HashMap<>();
        for (Member node : config.members()) {
            if (!node.id().equals(config.nodeId())) {
                asked.put(node.id(), CompletableFuture.supplyAsync(() -> {
                    try (BatchStream answer = exchange.fetch(node, logIndex, ticket)) {
                        return (Long) Batches.drainRows(answer).get(0).get(0);
                    }
                }, REQUESTS));
            }
        }
        Map<String, Long> sizes = new HashMap<>();
        for (Map.Entry<String, CompletableFuture<Long>> a : asked.entrySet()) {
            sizes.put(a.getKey(), Futures.join(a.getValue()));
        }
        return sizes;
    }

    /** The rows the last attempt parsed: the COPY's count. */
    long rows() {
        return rows;
    }

    /**
     * Loads every file, one after another, each by every node at once, under {@code load}; returns
     * the rows staged on each node, by node id. Fails with {@link Misaligned} when a range started
     * wrong (the next attempt starts it right), else with the first failure of a range that started
     * right; the caller aborts the load either way.
     */
    Map<String, Long> stage(String load) {
        List<Member> members = config.members();
        if (++attempts > files.size() * members.size() + 1) {
            throw new WarpException(SqlState.IO_ERROR, "the byte ranges of " + files + " never met: did a file change during the COPY?");
        }
        Map<String, Long> staged = new HashMap<>();
        members.forEach(m -> staged.put(m.id(), 0L));
        rows = 0;
        for (int f = 0; f < files.size(); f++) {
            List<CompletableFuture<List<List<Object>>>> ranges = new ArrayList<>();
            for (int n = 0; n < members.size(); n++) {
                ranges.add(loadRange(members.get(n), ticket(load, f, n)));
            }
            // every range is over, failed or not, before the load is decided
            List<List<List<Object>>> answers = new ArrayList<>();
            List<RuntimeException> failures = new ArrayList<>();
            for (CompletableFuture<List<List<Object>>> range : ranges) {
                try {
                    answers.add(Futures.join(range));
                    failures.add(null);
                } catch (RuntimeException e) {
                    answers.add(null);
                    failures.add(e);
                }
            }
            long expected = 0;
            for (int n = 0; n < members.size(); n++) {
                List<List<Object>> answer = answers.get(n);
                long start = answer != null ? (Long) answer.get(0).get(0)
                        : exact.get(f)[n] ? froms.get(f)[n] : CsvRange.recordStart(files.get(f), froms.get(f)[n]);
                if (start != expected) {
                    froms.get(f)[n] = expected;
                    exact.get(f)[n] = true;
                    throw new Misaligned("range " + (n + 1) + " of " + files.get(f) + " started at offset " + start + ", inside the"
                            + " quoted field of the record that starts before it and ends at " + expected);
                }
                if (answer == null) {
                    throw failures.get(n);
                }
                expected = (Long) answer.get(0).get(1);
                rows += (Long) answer.get(0).get(2);
                for (int m = 0; m < members.size(); m++) {
                    staged.merge(members.get(m).id(), (Long) answer.get(m).get(3), Long::sum);
                }
            }
            if (expected != sizes.get(f)) {
                throw new WarpException(SqlState.IO_ERROR, "the ranges of " + files.get(f) + " ended at offset " + expected + " of its "
                        + sizes.get(f) + " bytes: did the file change during the COPY?");
            }
        }
        return staged;
    }

    private CopyRangeTicket ticket(String load, int file, int node) {
        int nodes = config.members().size();
        long size = sizes.get(file);
        return new CopyRangeTicket(files.get(file).toString(), size, load, table.name(), copy.options(), keys, froms.get(file)[node],
                exact.get(file)[node], size * (node + 1) / nodes);
    }

    /** Node {@code node}'s load of the ticket's range, on a thread of its own: over the exchange, or here. */
    private CompletableFuture<List<List<Object>>> loadRange(Member node, CopyRangeTicket ticket) {
        long logIndex = shard.logApplied();
        return CompletableFuture.supplyAsync(() -> {
            try (BatchStream answer = node.id().equals(config.nodeId())
                    ? CopyRange.run(ticket, shard, exchange, config.members(), shard.database().allocator())
                    : exchange.fetch(node, logIndex, ticket.text())) {
                return Batches.drainRows(answer);
            }
        }, REQUESTS);
    }
}
