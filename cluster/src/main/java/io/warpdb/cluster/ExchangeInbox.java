package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.Schema;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What a node has received under each exchange id ({@link Exchange#receive}'s side), whatever
 * the transport that delivered it: batches in arrival order, rows left in the device's memory
 * ({@link ResidentRows}, handed over together once every sender has finished), which senders have
 * finished, and the first failure. Rows may arrive before their reader asks; an id whose reader closed, or whose
 * query was released, is remembered for a while so that rows still arriving for it are dropped.
 * Boxes that no reader opened for that long (a coordinator that died mid-query) are dropped too.
 */
final class ExchangeInbox implements AutoCloseable {
    /** How long a dropped id is remembered, and an unread box kept. */
    private static final long FORGET_NANOS = Duration.ofMinutes(10).toNanos();

    private final Duration timeout;
    private final Map<String, Box> boxes = new ConcurrentHashMap<>();
    /** Dropped exchange ids and released queries ({@code query/}), with when. */
    private final Map<String, Long> dropped = new ConcurrentHashMap<>();

    /** {@code timeout}: how long a reader waits for the next rows from any sender. */
    ExchangeInbox(Duration timeout) {
        this.timeout = timeout;
    }

    /** One exchange id's rows on this node. */
    private static final class Box {
        final long created = System.nanoTime();
        final ArrayDeque<Batch> batches = new ArrayDeque<>();
        final List<ResidentRows> resident = new ArrayList<>();
        final Set<String> finished = new HashSet<>();
        WarpException failure;
        boolean reading;
        boolean closed;
    }

    /**
     * Takes {@code batch}, which {@code sender} sent under {@code exchange}; closes it when the id
     * was dropped, and answers false then: the sender may stop.
     */
    boolean deliver(String exchange, String sender, Batch batch) {
        return deliver(exchange, box -> box.batches.add(batch), batch::close);
    }

    /** As {@link #deliver(String, String, Batch)}, for rows on the device. */
    boolean deliver(String exchange, String sender, ResidentRows rows) {
        return deliver(exchange, box -> box.resident.add(rows), rows::close);
    }

    /** Puts rows into the box of {@code exchange} with {@code add}, or closes them with {@code drop} when the id was dropped. */
    private boolean deliver(String exchange, Consumer<Box> add, Runnable drop) {
        Box box = box(exchange);
        synchronized (box) {
            if (!box.closed) {
                add.accept(box);
                box.notifyAll();
                return true;
            }
        }
        drop.run();
        return false;
    }

    /** {@code sender} has sent all its rows under {@code exchange}. */
    void finish(String exchange, String sender) {
        Box box = box(exchange);
        synchronized (box) {
            box.finished.add(sender);
            box.notifyAll();
        }
    }

    /** {@code sender}'s stream under {@code exchange} failed with {@code error}: the reader throws it. */
    void fail(String exchange, String sender, WarpException error) {
        Box box = box(exchange);
        synchronized (box) {
            if (box.failure == null) {
                box.failure = error;
            }
            box.notifyAll();
        }
    }

    /** The rows all {@code senders} send under {@code exchange}, as {@link Exchange#receive} describes. */
    Received receive(String exchange, List<Member> senders, Schema schema) {
        Box box = box(exchange);
        synchronized (box) {
            box.reading = true;
        }
        return new Received() {
            @Override
            public List<ResidentRows> takeDeviceRows() {
                synchronized (box) {
                    List<ResidentRows> taken = List.copyOf(box.resident);
                    box.resident.clear();
                    return taken;
                }
            }

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public Batch next() {
                long deadline = System.nanoTime() + timeout.toNanos();
                synchronized (box) {
                    while (true) {
                        if (box.failure != null) {
                            throw new WarpException(box.failure.state(), box.failure.getMessage(), box.failure);
                        }
                        Batch batch = box.batches.poll();
                        if (batch != null) {
                            return new Batch(schema, batch.vectors(), batch.dictionaries(), batch.rowCount());
                        }
                        if (box.closed) {
                            throw new WarpException(SqlState.QUERY_CANCELED, "the rows of exchange " + exchange
                                    + " were released: its query failed or was cancelled");
                        }
                        List<Member> waiting = senders.stream().filter(m -> !box.finished.contains(m.id())).toList();
                        if (waiting.isEmpty()) {
                            return null;
                        }
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            throw new WarpException(SqlState.CONNECTION_FAILURE, waiting.stream()
                                    .map(m -> "node " + m.id() + " (" + m.host() + ":" + m.flightPort() + ")").collect(Collectors.joining(", "))
                                    + " did not send its rows of exchange " + exchange + " within " + timeout.toSeconds()
                                    + " s (node.timeout.seconds)");
                        }
                        try {
                            box.wait(Math.max(1, left / 1_000_000));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while waiting for exchange " + exchange);
                        }
                    }
                }
            }

            @Override
            public void close() {
                drop(exchange);
            }
        };
    }

    /** An exchange's rows as they arrive: host batches streamed; rows on the device taken once the stream has ended. */
    interface Received extends BatchStream {
        /** The rows that arrived on the device, once {@link #next} has returned null; the caller owns them. */
        List<ResidentRows> takeDeviceRows();
    }

    /** Drops what arrived and will arrive under every exchange id of {@code query}. */
    void release(String query) {
        String prefix = query + "/";
        dropped.put(prefix, System.nanoTime());
        for (String exchange : List.copyOf(boxes.keySet())) {
            if (exchange.startsWith(prefix)) {
                drop(exchange);
            }
        }
    }

    private void drop(String exchange) {
        dropped.put(exchange, System.nanoTime());
        Box box = boxes.remove(exchange);
        if (box != null) {
            close(box);
        }
    }

    private static void close(Box box) {
        synchronized (box) {
            box.closed = true;
            box.batches.forEach(Batch::close);
            box.batches.clear();
            box.resident.forEach(ResidentRows::close);
            box.resident.clear();
            box.notifyAll();
        }
    }

    /** The box of {@code exchange}: a closed one when the id or its query was dropped. */
    private Box box(String exchange) {
        int slash = exchange.lastIndexOf('/');
        if (dropped.containsKey(exchange) || (slash > 0 && dropped.containsKey(exchange.substring(0, slash + 1)))) {
            Box closed = new Box();
            closed.closed = true;
            return closed;
        }
        Box box = boxes.get(exchange);
        if (box == null) {
            forgetOld();
            box = boxes.computeIfAbsent(exchange, id -> new Box());
        }
        return box;
    }

    private void forgetOld() {
        long now = System.nanoTime();
        dropped.values().removeIf(at -> now - at > FORGET_NANOS);
        boxes.entrySet().removeIf(e -> {
            boolean stale;
            synchronized (e.getValue()) {
                stale = !e.getValue().reading && now - e.getValue().created > FORGET_NANOS;
            }
            if (stale) {
                close(e.getValue());
            }
            return stale;
        });
    }

    @Override
    public void close() {
        List.copyOf(boxes.keySet()).forEach(this::drop);
    }
}
