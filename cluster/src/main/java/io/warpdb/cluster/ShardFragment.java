package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.core.exec.MeteredStream;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SharedSubplans;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * A shard's run of one fragment ({@link FragmentTicket}): it plans the query's text, takes its
 * copy of the fragment's subtree, replaces the subtrees whose rows come from exchanges by scans
 * of what every node sent it there (read whole: {@link ReceivedRows}), and runs the
 * result over its shard. The rows go back to the caller, or to every node under the ticket's
 * exchange: hashed on its keys (CPU murmur3, {@link ShardPartitioner}) or all to all; then the
 * caller gets one row of {@link #SENT}.
 */
final class ShardFragment {
    /**
     * What a sending fragment answers: the rows it sent, the Arrow bytes of the batches it sent to
     * other nodes and the bytes of their frames on the wire (after compression; -1 where the
     * transport does not count them), its time, of those bytes the ones of the first hop of a
     * two-level shuffle (0 for one level), and the ones that went device to device over CUDA IPC;
     * then where its time went, in the order of {@link Steps#counts}.
     */
    static final Schema SENT = new Schema(List.of(new Field("rows", DataType.BIGINT), new Field("bytes", DataType.BIGINT),
            new Field("wire_bytes", DataType.BIGINT), new Field("nanos", DataType.BIGINT), new Field("hop1_bytes", DataType.BIGINT),
            new Field("hop1_wire_bytes", DataType.BIGINT), new Field("ipc_bytes", DataType.BIGINT), new Field("plan_nanos", DataType.BIGINT),
            new Field("take_nanos", DataType.BIGINT), new Field("resident_rows", DataType.BIGINT), new Field("partition_nanos", DataType.BIGINT),
            new Field("send_nanos", DataType.BIGINT), new Field("finish_nanos", DataType.BIGINT), new Field("pull_nanos", DataType.BIGINT),
            new Field("inputs_nanos", DataType.BIGINT), new Field("open_wait_nanos", DataType.BIGINT), new Field("open_start_nanos", DataType.BIGINT),
            new Field("lookup_nanos", DataType.BIGINT), new Field("channel_nanos", DataType.BIGINT), new Field("answer_nanos", DataType.BIGINT)));
    /** What the exchange id of a two-level shuffle's first hop adds to the exchange's (no slash: a release by query drops it too). */
    static final String HOP1 = ".hop1";
    /**
     * The bytes of rows resident on a device that a sender hashes at once ({@link #sendResident}):
     * large enough that a chunk's kernels and descriptors cost little beside its copies, small enough
     * that the receivers' copies of the last chunk, which nothing overlaps, are a small part of the
     * exchange. {@code -Dwarpdb.cluster.deviceChunkMb} sets it (0: the whole result at once).
     */
    static final long DEVICE_CHUNK_BYTES = chunkBytes(Long.getLong("warpdb.cluster.deviceChunkMb", 512));
    /** Opens the outboxes of the fragments' hops ({@link Opening}). */
    private static final ExecutorService OPENERS = DaemonThreads.cachedPool("shard-fragment-outboxes");
    /** Hashes the next chunk of a sender's device-resident rows while the one before is sent ({@link #splitByChunk}). */
    private static final ExecutorService HASHERS = DaemonThreads.cachedPool("shard-fragment-hashing");

    private ShardFragment() {
    }

    /**
     * One hop of rows: under {@code exchange} to the {@code targets} (shard numbers); a row bound
     * for shard t goes to {@code targets[position[t]]}; {@code acrossGroups}: false for the first
     * hop of a two-level shuffle, which stays within a host and is not worth compressing.
     */
    private record Hop(String exchange, List<Integer> targets, int[] position, boolean acrossGroups) {
    }

    /** What one hop moved: rows, Arrow bytes to other nodes, wire bytes (-1: not counted), of the bytes those over CUDA IPC. */
    private record Moved(long rows, long bytes, long wireBytes, long ipcBytes) {
    }

    /**
     * Where a fragment's time went, summed over its hops (EXPLAIN ANALYZE): planning it and opening
     * its plan's result (the GPU executor runs the plan then), of that the wait for the rows other
     * nodes sent it and their reading ({@code inputsNanos}); then for a sending fragment taking its
     * rows (resident on the device, or host batches: a GPU result's download, a CPU plan's run),
     * hashing them into parts (upload of host chunks, kernels, the wait for the parts' sizes; on the
     * host path the parts' copy back), waiting for the outboxes' opening ({@code openWaitNanos}) and
     * handing them the parts ({@code sendNanos}: device frames, or host batches encoded and sent;
     * waits for the receivers' credits included), waiting for every receiver's end, and of that the
     * time the receivers spent copying its device frames in (over UCX, as their ends say). The
     * opening runs beside the rest, begun once the plan was made ({@code openStartNanos} after the
     * fragment's start, its first hop's): finding the receivers ({@code lookupNanos}: UCX worker
     * addresses), opening their channels (the hand-off to its thread, the open and schema frames),
     * and the receivers' answers to the device offer.
     */
    private static final class Steps {
        long planNanos;
        long takeNanos;
        long residentRows;
        long partitionNanos;
        long sendNanos;
        long finishNanos;
        long pullNanos;
        long inputsNanos;
        long openWaitNanos;
        long openStartNanos = -1;
        long lookupNanos;
        long channelNanos;
        long answerNanos;

        long[] counts() {
            return new long[] {planNanos, takeNanos, residentRows, partitionNanos, sendNanos, finishNanos, pullNanos, inputsNanos,
                openWaitNanos, Math.max(openStartNanos, 0), lookupNanos, channelNanos, answerNanos};
        }
    }

    /**
     * Runs {@code ticket} on {@code shard}; {@code queryPlan}: the plan of the ticket's query on this
     * node when the caller has it (the coordinator's own shard), else null to plan the ticket's text;
     * {@code members}: every node, in shard order. The caller owns the stream. A sending fragment
     * that fails ends its streams to every node it was to send to as failed with its error, so that
     * no reader waits for it.
     */
    static BatchStream run(FragmentTicket ticket, PlanNode queryPlan, ShardStore shard, Exchange exchange, List<Member> members,
            BufferAllocator allocator) {
        long start = System.nanoTime();
        Steps steps = new Steps();
        if (ticket.output() == null) {
            return new GatheredRows(rows(ticket, queryPlan, shard, exchange, members, schema -> { }, steps), start, steps);
        }
        List<Hop> hops = hops(ticket.output(), shardOf(exchange.self(), members), members.size());
        List<Opening> openings = hops.stream().map(hop -> new Opening(exchange, hop, members, start, steps)).toList();
        List<Moved> moved = new ArrayList<>();
        try {
            Schema schema;
            try (BatchStream rows = rows(ticket, queryPlan, shard, exchange, members, openings.get(0)::start, steps)) {
                steps.planNanos = System.nanoTime() - start;
                schema = rows.schema();
                moved.add(send(rows, ticket.output().keys(), hops.get(0), openings.get(0), members, exchange, shard.partitioner(), allocator,
                        steps));
            }
            if (hops.size() == 2) {
                List<Member> senders = hops.get(0).targets().stream().map(members::get).toList();
                openings.get(1).start(schema);
                try (BatchStream received = exchange.receive(hops.get(0).exchange(), senders, schema)) {
                    moved.add(send(received, ticket.output().keys(), hops.get(1), openings.get(1), members, exchange, shard.partitioner(),
                            allocator, steps));
                }
            }
        } catch (RuntimeException e) {
            WarpException error = e instanceof WarpException w ? w : new WarpException(SqlState.INTERNAL_ERROR, String.valueOf(e.getMessage()), e);
            for (int h = moved.size(); h < hops.size(); h++) {
                fail(hops.get(h), openings.get(h).settled(e), members, exchange, error, e);
            }
            throw e;
        } finally {
            openings.forEach(opening -> opening.settled(null).stream().filter(o -> o != null).forEach(Exchange.Outbox::close));
        }
        Moved first = moved.get(0);
        long bytes = moved.stream().mapToLong(Moved::bytes).sum();
        long wire = moved.stream().anyMatch(m -> m.wireBytes() < 0) ? -1 : moved.stream().mapToLong(Moved::wireBytes).sum();
        long[] moves = {first.rows(), bytes, wire, System.nanoTime() - start, moved.size() == 2 ? first.bytes() : 0,
            moved.size() == 2 ? first.wireBytes() : 0, moved.stream().mapToLong(Moved::ipcBytes).sum()};
        long[] counts = LongStream.concat(Arrays.stream(moves), Arrays.stream(steps.counts())).toArray();
        return Batches.of(SENT, List.of(Batches.longRow(SENT, allocator, counts)));
    }

    /** Shard {@code self}'s hops of rows as {@code output} says: one, to every shard; or the two of a two-level shuffle. */
    private static List<Hop> hops(FragmentTicket.Output output, int self, int shards) {
        if (output.groups() == null) {
            List<Integer> all = IntStream.range(0, shards).boxed().toList();
            return List.of(new Hop(output.exchange(), all, ShuffleRoute.positions(all, shards, t -> t), true));
        }
        ShuffleRoute route = new ShuffleRoute(output.groups());
        int group = output.groups().get(self);
        List<Integer> withinGroup = route.groupOf(self);
        List<Integer> forwarded = route.targets(self);
        return List.of(new Hop(output.exchange() + HOP1, withinGroup, ShuffleRoute.positions(withinGroup, shards, t -> route.forwarder(group, t)),
                false), new Hop(output.exchange(), forwarded, ShuffleRoute.positions(forwarded, shards, t -> t), true));
    }

    /** The senders of exchange rows of {@code input} to shard {@code self}: every shard, or its forwarders in a two-level shuffle. */
    static List<Member> senders(FragmentTicket.Input input, Member self, List<Member> members) {
        if (input.groups() == null) {
            return members;
        }
        return new ShuffleRoute(input.groups()).senders(shardOf(self, members)).stream().map(members::get).toList();
    }

    private static int shardOf(Member node, List<Member> members) {
        for (int s = 0; s < members.size(); s++) {
            if (members.get(s).id().equals(node.id())) {
                return s;
            }
        }
        throw new WarpException(SqlState.INTERNAL_ERROR, "node " + node.id() + " is not a member");
    }

    /** Ends {@code hop}'s stream to every target as failed with {@code error}, opening those not open yet. */
    private static void fail(Hop hop, List<Exchange.Outbox> open, List<Member> members, Exchange exchange, WarpException error,
            RuntimeException failure) {
        for (int t = 0; t < hop.targets().size(); t++) {
            try {
                Exchange.Outbox outbox = t < open.size() ? open.get(t) : null;
                if (outbox == null) {
                    outbox = exchange.send(members.get(hop.targets().get(t)), hop.exchange(), new Schema(List.of()));
                    if (t < open.size()) {
                        open.set(t, outbox);
                    } else {
                        open.add(outbox);
                    }
                }
                outbox.fail(error);
            } catch (RuntimeException suppressed) {
                failure.addSuppressed(suppressed);
            }
        }
        for (Exchange.Outbox outbox : open) {
            if (outbox != null) {
                outbox.close();
            }
        }
        open.clear();
    }

    /**
     * The fragment's rows on this shard; {@code queryPlan}: as {@link #run} takes it; {@code planned}
     * is told the rows' schema once the fragment is planned, before it runs; the wait for its
     * inputs is added to {@code steps}.
     */
    private static BatchStream rows(FragmentTicket ticket, PlanNode queryPlan, ShardStore shard, Exchange exchange, List<Member> members,
            Consumer<Schema> planned, Steps steps) {
        Session session = shard.database().newLocalSession();
        List<AutoCloseable> owned = new ArrayList<>(List.of(session));
        try {
            // unshared as the coordinator's plan is (DistributedQuery), so that the ticket's fingerprint matches its subtree here
            PlanNode plan = queryPlan != null ? queryPlan : FragmentPlanner.reshaped(SharedSubplans.unshare(
                    QueryPlans.of(session, ticket.sql(), List.of(), ticket.statistics())
                            .orElseThrow(() -> new WarpException(SqlState.INTERNAL_ERROR, "not a query: " + ticket.sql())).plan()),
                    Set.copyOf(ticket.rotations()));
            PlanNode found = ticket.find(plan);
            PlanNode fragment = found;
            if (!ticket.inputs().isEmpty()) {
                long receiving = System.nanoTime();
                fragment = withReceivedInputs(ticket, fragment, exchange, members, owned);
                steps.inputsNanos += System.nanoTime() - receiving;
            }
            if (ticket.partial()) {
                fragment = FragmentPlanner.shardHalf((AggregateNode) fragment);
            }
            if (ticket.topN()) {
                fragment = FragmentPlanner.shardTopN(plan, found, fragment);
            }
            planned.accept(fragment.schema());
            return new ResultStream(QueryPlans.run(session, fragment, fragment.schema()), () -> closeAll(owned));
        } catch (RuntimeException e) {
            try {
                closeAll(owned);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * {@code fragment} with each input subtree replaced by a scan of the rows every node sent this
     * one under its exchange, or by their merge where they are a partial aggregate's groups.
     */
    private static PlanNode withReceivedInputs(FragmentTicket ticket, PlanNode fragment, Exchange exchange, List<Member> members,
            List<AutoCloseable> owned) {
        Map<List<Integer>, TableSource> sources = new HashMap<>();
        Set<List<Integer>> partials = new HashSet<>();
        for (int i = 0; i < ticket.inputs().size(); i++) {
            FragmentTicket.Input input = ticket.inputs().get(i);
            PlanNode replaced = FragmentPlanner.at(fragment, input.path());
            if (input.partial()) {
                partials.add(input.path());
                replaced = FragmentPlanner.shardHalf((AggregateNode) replaced);
            }
            Schema schema = numbered(replaced.schema());
            try (BatchStream rows = exchange.receive(input.exchange(), senders(input, exchange.self(), members), schema)) {
                ReceivedRows received = ReceivedRows.read("input_" + i, schema, rows);
                owned.add(0, received);
                sources.put(input.path(), received);
            }
        }
        return FragmentPlanner.withInputs(fragment, sources, partials);
    }

    /**
     * {@code schema} as a table of moved rows: its columns named c0, c1, ... (a join's columns may
     * share names, a table's may not) and nullable (the table carries rows, it checks no constraint:
     * an outer join's side may be typed NOT NULL where its rows hold NULL).
     */
    static Schema numbered(Schema schema) {
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            fields.add(new Field("c" + c, schema.type(c).withNullable(true)));
        }
        return new Schema(fields);
    }

    /**
     * Sends {@code rows} over {@code hop}: hashed on {@code keys} by {@code partitioning} (on the GPU
     * or the CPU, as the shard's partitioner is) into one part per node, each part to the target the
     * hop routes that node's rows through (or every row to every target when there are no keys), one
     * outbox per target, which {@code opening} opens (started, or started now); adds its times to {@code steps}.
     */
    private static Moved send(BatchStream rows, List<Integer> keys, Hop hop, Opening opening, List<Member> members, Exchange exchange,
            HashPartitioner partitioning, BufferAllocator allocator, Steps steps) {
        opening.start(rows.schema());
        List<Member> targets = hop.targets().stream().map(members::get).toList();
        boolean[] remote = new boolean[targets.size()];
        for (int t = 0; t < remote.length; t++) {
            remote[t] = !targets.get(t).id().equals(exchange.self().id());
        }
        Sending sending = new Sending(opening, remote, steps);
        long sentRows = 0;
        if (keys.isEmpty()) {
            for (Batch next = take(rows, steps); next != null; next = take(rows, steps)) {
                try (Batch batch = next) {
                    sentRows += batch.rowCount();
                    // copies, not slices: what the outboxes and this node's inbox keep must not share buffers of the
                    // fragment's own allocator, which closes with it
                    for (int t = 0; t < targets.size(); t++) {
                        sending.put(t, CpuHashPartitioner.copy(batch, allocator));
                    }
                }
            }
            // rows reach a device only as parts hashed on keys, so a first hop without keys left none there
            List<ResidentRows> stray = rows instanceof ExchangeInbox.Received received ? received.takeDeviceRows() : List.of();
            stray.forEach(ResidentRows::close);
            if (!stray.isEmpty()) {
                throw new WarpException(SqlState.INTERNAL_ERROR, "rows of " + hop.exchange() + " on the device without keys to hash");
            }
        } else {
            ShardPartitioner partitioner = new ShardPartitioner(keys, members.size(), partitioning);
            // rows hashed on a device stay there for the nodes of this host that can map it (CUDA IPC)
            Optional<DeviceExchange> device = partitioning == HashPartitioner.cpu() ? Optional.empty() : exchange.device();
            if (device.isPresent()) {
                // an executor's result still on the device is hashed there whole, without its copy to the host and back
                long taking = System.nanoTime();
                ResidentRows resident = rows.takeResident();
                steps.takeNanos += System.nanoTime() - taking;
                if (resident != null) {
                    try (resident) {
                        sentRows += resident.rowCount();
                        sendResident(resident, keys, partitioner, device, hop.position(), sending, allocator);
                    }
                }
            }
            List<Batch> chunk = new ArrayList<>();
            long chunkBytes = 0;
            try {
                for (Batch next = take(rows, steps); next != null; next = take(rows, steps)) {
                    chunk.add(next);
                    sentRows += next.rowCount();
                    chunkBytes += arrowBytes(next);
                    if (chunkBytes >= partitioner.chunkBytes()) {
                        sendChunk(chunk, keys, partitioner, device, hop.position(), sending, allocator);
                        chunk.forEach(Batch::close);
                        chunk.clear();
                        chunkBytes = 0;
                    }
                }
                if (!chunk.isEmpty()) {
                    sendChunk(chunk, keys, partitioner, device, hop.position(), sending, allocator);
                }
            } finally {
                chunk.forEach(Batch::close);
            }
            if (rows instanceof ExchangeInbox.Received received) {
                // a forwarder's rows that the first hop left on its device go on from there, hashed where they are
                sentRows += sendReceivedOnDevice(received.takeDeviceRows(), keys, partitioner, device, hop.position(), sending, allocator);
            }
        }
        long finishing = System.nanoTime();
        for (Exchange.Outbox outbox : sending.outboxes()) {
            outbox.finish();
            steps.pullNanos += outbox.pulledNanos();
        }
        steps.finishNanos += System.nanoTime() - finishing;
        return new Moved(sentRows, sending.bytes, sending.wire, sending.ipcBytes);
    }

    /** Hashes {@code chunk} into one part per node, on the device when it keeps the parts there, and sends part p to target {@code targetOf[p]}. */
    private static void sendChunk(List<Batch> chunk, List<Integer> keys, ShardPartitioner partitioner, Optional<DeviceExchange> device,
            int[] targetOf, Sending sending, BufferAllocator allocator) {
        long start = System.nanoTime();
        Optional<DeviceParts> onDevice = device.flatMap(d -> d.split(chunk, keys, targetOf.length));
        if (onDevice.isEmpty()) {
            List<List<Batch>> parts = partitioner.splitChunk(chunk, allocator);
            sending.steps.partitionNanos += System.nanoTime() - start;
            sending.putParts(parts, targetOf);
            return;
        }
        sending.steps.partitionNanos += System.nanoTime() - start;
        sendParts(onDevice.get(), targetOf, sending, allocator);
    }

    /**
     * As {@link #sendChunk}, for rows on the device: hashed where they are a chunk of about {@link
     * #DEVICE_CHUNK_BYTES} at a time, each chunk's parts sent while the next is hashed, so that the
     * receivers' copies of one chunk overlap the hashing of the next instead of all following the
     * whole table's; the rows the device cannot hash (no room for a chunk's parts) are brought to the host.
     */
    private static void sendResident(ResidentRows rows, List<Integer> keys, ShardPartitioner partitioner, Optional<DeviceExchange> device,
            int[] targetOf, Sending sending, BufferAllocator allocator) {
        int total = rows.rowCount();
        int hashed = device.map(d -> splitByChunk(rows, deviceChunkRows(rows), d, keys, targetOf.length,
                nanos -> sending.steps.partitionNanos += nanos, parts -> sendParts(parts, targetOf, sending, allocator))).orElse(0);
        sending.steps.residentRows += hashed;
        if (hashed == total) {
            return;
        }
        long downloading = System.nanoTime();
        try (Batch host = rows.toHost(IntStream.range(0, rows.schema().size()).boxed().toList(), hashed, total - hashed, allocator)) {
            sending.steps.takeNanos += System.nanoTime() - downloading;
            long partitioning = System.nanoTime();
            List<List<Batch>> parts = partitioner.splitChunk(List.of(host), allocator);
            sending.steps.partitionNanos += System.nanoTime() - partitioning;
            sending.putParts(parts, targetOf);
        }
    }

    /**
     * Hashes {@code rows} on {@code device} into {@code parts} parts {@code chunkRows} rows at a time
     * from the first, handing each chunk's parts to {@code send} (which closes them) in order, and
     * each chunk's hashing time to {@code hashing}; returns how many rows it hashed: all, or fewer
     * when the device had no room for a chunk's parts. One chunk is hashed ahead, on a thread of
     * its own, while the one before it is sent: its kernels then run while this thread hands the
     * parts over (exports, descriptors, the copy of this node's own part) instead of after it.
     */
    static int splitByChunk(ResidentRows rows, int chunkRows, DeviceExchange device, List<Integer> keys, int parts, LongConsumer hashing,
            Consumer<DeviceParts> send) {
        int total = rows.rowCount();
        int from = 0;
        CompletableFuture<HashedChunk> next = total == 0 ? null : hashAhead(device, rows, 0, Math.min(chunkRows, total), keys, parts);
        try {
            while (next != null) {
                HashedChunk chunk = Futures.join(next);
                next = null;
                hashing.accept(chunk.nanos());
                if (chunk.parts().isEmpty()) {
                    break;
                }
                int end = from + Math.min(chunkRows, total - from);
                if (end < total) {
                    next = hashAhead(device, rows, end, Math.min(chunkRows, total - end), keys, parts);
                }
                send.accept(chunk.parts().get());
                from = end;
            }
        } finally {
            if (next != null) {
                // the send failed: the chunk hashed ahead is waited for and dropped
                next.handle((chunk, error) -> {
                    if (chunk != null) {
                        chunk.parts().ifPresent(DeviceParts::close);
                    }
                    return null;
                }).join();
            }
        }
        return from;
    }

    /** A chunk hashed in {@code nanos}: its parts, or empty when the device had no room for them. */
    private record HashedChunk(long nanos, Optional<DeviceParts> parts) {
    }

    private static CompletableFuture<HashedChunk> hashAhead(DeviceExchange device, ResidentRows rows, int from, int count, List<Integer> keys,
            int parts) {
        return CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            Optional<DeviceParts> hashed = device.split(rows, from, count, keys, parts);
            return new HashedChunk(System.nanoTime() - start, hashed);
        }, HASHERS);
    }

    private static long chunkBytes(long megabytes) {
        return megabytes <= 0 ? Long.MAX_VALUE : megabytes << 20;
    }

    /** Rows of {@code rows} per chunk that {@link #sendResident} hashes at once: about {@link #DEVICE_CHUNK_BYTES} of their columns. */
    static int deviceChunkRows(ResidentRows rows) {
        long bytesPerRow = Math.max(1, rows.bytes() / Math.max(1, rows.rowCount()));
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, DEVICE_CHUNK_BYTES / bytesPerRow));
    }

    /** {@link #sendResident} of each of {@code received} (which it closes, sent or not); returns the rows they held. */
    private static long sendReceivedOnDevice(List<ResidentRows> received, List<Integer> keys, ShardPartitioner partitioner,
            Optional<DeviceExchange> device, int[] targetOf, Sending sending, BufferAllocator allocator) {
        long rows = 0;
        try {
            for (ResidentRows part : received) {
                rows += part.rowCount();
                sendResident(part, keys, partitioner, device, targetOf, sending, allocator);
            }
        } finally {
            received.forEach(ResidentRows::close);
        }
        return rows;
    }

    /**
     * Sends part p of {@code parts} (which it closes) to target {@code targetOf[p]}: the parts for
     * other nodes first, so that their copies run while this node's own part is copied into its inbox.
     * An empty part is skipped: in a two-level shuffle's hop 2 the parts of nodes outside the
     * forwarder's group are empty and have no target.
     */
    private static void sendParts(DeviceParts parts, int[] targetOf, Sending sending, BufferAllocator allocator) {
        try (parts) {
            for (boolean toOthers : new boolean[] {true, false}) {
                for (int p = 0; p < parts.parts(); p++) {
                    if (parts.rows(p) > 0 && sending.remote[targetOf[p]] == toOthers) {
                        sending.putDevice(targetOf[p], parts, p, allocator);
                    }
                }
            }
        }
    }

    /** The next batch of {@code rows}, its wait counted as taking rows. */
    private static Batch take(BatchStream rows, Steps steps) {
        long start = System.nanoTime();
        Batch next = rows.next();
        steps.takeNanos += System.nanoTime() - start;
        return next;
    }

    /**
     * A hop's outboxes, opened on a thread of their own from the moment the rows' schema is known, so
     * that the round trips that takes (a node's UCX worker address asked over Flight, the channel's
     * open, the receiver's answer to a device offer) overlap the fragment's run and the hashing of
     * its rows instead of following them; their times go to {@code steps} once opened.
     */
    private static final class Opening {
        private final Exchange exchange;
        private final Hop hop;
        private final List<Member> targets;
        private final long fragmentStart;
        private final Steps steps;
        /** The outboxes once opened, in the hop's target order; {@link #fail} may add and set others. */
        private final List<Exchange.Outbox> open = new ArrayList<>();
        private CompletableFuture<List<Exchange.Outbox>> opening;
        private long startedAt;
        /** The opening's times, written by its thread before its future completes. */
        private long lookupNanos;
        private long channelNanos;
        private long answerNanos;

        /** {@code fragmentStart}: when the fragment began ({@link System#nanoTime}). */
        Opening(Exchange exchange, Hop hop, List<Member> members, long fragmentStart, Steps steps) {
            this.exchange = exchange;
            this.hop = hop;
            this.targets = hop.targets().stream().map(members::get).toList();
            this.fragmentStart = fragmentStart;
            this.steps = steps;
        }

        /** Starts opening the outboxes for rows of {@code schema}, unless already started. */
        void start(Schema schema) {
            if (opening != null || !open.isEmpty()) {
                return;
            }
            startedAt = System.nanoTime();
            opening = CompletableFuture.supplyAsync(() -> {
                List<Exchange.Outbox> outboxes = exchange.send(targets, hop.exchange(), schema, hop.acrossGroups());
                long sent = System.nanoTime();
                lookupNanos = outboxes.stream().mapToLong(Exchange.Outbox::lookupNanos).sum();
                channelNanos = sent - startedAt - lookupNanos;
                try {
                    // asked here, the receivers' answers to the device offer arrive while the rows are made
                    outboxes.forEach(Exchange.Outbox::takesDevice);
                } catch (RuntimeException e) {
                    outboxes.forEach(Exchange.Outbox::close);
                    throw e;
                }
                answerNanos = System.nanoTime() - sent;
                return outboxes;
            }, OPENERS);
        }

        /** The outboxes, waiting for their opening; throws what failed it. */
        List<Exchange.Outbox> outboxes() {
            if (opening != null) {
                CompletableFuture<List<Exchange.Outbox>> pending = opening;
                opening = null;
                open.addAll(Futures.join(pending));
                if (steps.openStartNanos < 0) {
                    steps.openStartNanos = startedAt - fragmentStart;
                }
                steps.lookupNanos += lookupNanos;
                steps.channelNanos += channelNanos;
                steps.answerNanos += answerNanos;
            }
            return open;
        }

        /** The outboxes opened, once an opening under way has ended; its failure is added to {@code failure} (when not null). */
        List<Exchange.Outbox> settled(RuntimeException failure) {
            try {
                return outboxes();
            } catch (RuntimeException e) {
                if (failure != null && e != failure) {
                    failure.addSuppressed(e);
                }
                return open;
            }
        }
    }

    /** Puts batches into a hop's outboxes, counting the bytes that go to other nodes and the time it takes. */
    private static final class Sending {
        private final Opening opening;
        private final boolean[] remote;
        private final Steps steps;
        private long bytes;
        private long wire;
        private long ipcBytes;

        Sending(Opening opening, boolean[] remote, Steps steps) {
            this.opening = opening;
            this.remote = remote;
            this.steps = steps;
        }

        /** The hop's outboxes, the wait for their opening counted apart from sending. */
        List<Exchange.Outbox> outboxes() {
            long start = System.nanoTime();
            List<Exchange.Outbox> outboxes = opening.outboxes();
            steps.openWaitNanos += System.nanoTime() - start;
            return outboxes;
        }

        /** Sends {@code batch} (which it closes) to outbox {@code t}; an empty one is dropped. */
        void put(int t, Batch batch) {
            if (batch.rowCount() == 0) {
                batch.close();
                return;
            }
            if (remote[t]) {
                bytes += arrowBytes(batch);
            }
            Exchange.Outbox outbox;
            try {
                outbox = outboxes().get(t);
            } catch (RuntimeException e) {
                batch.close();
                throw e;
            }
            long start = System.nanoTime();
            long frames = outbox.put(batch);
            steps.sendNanos += System.nanoTime() - start;
            wire = wire < 0 || frames < 0 ? -1 : wire + frames;
        }

        /** Sends part {@code part} of {@code parts}, not empty, to outbox {@code t}: device to device where it takes that, else as a host batch. */
        void putDevice(int t, DeviceParts parts, int part, BufferAllocator allocator) {
            Exchange.Outbox outbox = outboxes().get(t);
            long start = System.nanoTime();
            if (!outbox.takesDevice()) {
                Batch host = parts.toHost(part, allocator);
                steps.sendNanos += System.nanoTime() - start;
                put(t, host);
                return;
            }
            long frames = outbox.putDevice(parts, part);
            steps.sendNanos += System.nanoTime() - start;
            wire = wire < 0 || frames < 0 ? -1 : wire + frames;
            if (remote[t]) {
                bytes += parts.bytes(part);
                ipcBytes += parts.bytes(part);
            }
        }

        /** Sends part p's batches to outbox {@code targetOf[p]}; closes them all, sent or not. */
        void putParts(List<List<Batch>> parts, int[] targetOf) {
            try {
                for (int p = 0; p < parts.size(); p++) {
                    List<Batch> part = parts.get(p);
                    for (int i = 0; i < part.size(); i++) {
                        put(targetOf[p], part.set(i, null));
                    }
                }
            } finally {
                parts.forEach(part -> part.stream().filter(b -> b != null).forEach(Batch::close));
            }
        }
    }

    /** A gathered fragment's rows, which report where its time went on this node: its run so far is the time spent in {@link #next}. */
    private static final class GatheredRows implements BatchStream, NodeTimes.Reported {
        private final NodeStats run = new NodeStats();
        private final BatchStream rows;
        private final long openNanos;
        private final long inputsNanos;

        /** {@code opened}: just opened by a fragment begun at {@code start}, whose wait for its inputs {@code steps} holds. */
        GatheredRows(BatchStream opened, long start, Steps steps) {
            this.rows = new MeteredStream(opened, run);
            this.inputsNanos = steps.inputsNanos;
            this.openNanos = System.nanoTime() - start - inputsNanos;
        }

        @Override
        public Schema schema() {
            return rows.schema();
        }

        @Override
        public Batch next() {
            return rows.next();
        }

        @Override
        public NodeTimes nodeTimes() {
            return new NodeTimes(openNanos, inputsNanos, run.wallNanos());
        }

        @Override
        public void close() {
            rows.close();
        }
    }

    private static long arrowBytes(Batch batch) {
        long bytes = 0;
        for (FieldVector v : batch.vectors()) {
            bytes += v.getBufferSize();
        }
        return bytes;
    }

    private static void closeAll(List<AutoCloseable> owned) {
        RuntimeException failure = null;
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
