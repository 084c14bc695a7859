package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * The UCX exchange's wire path alone, between two endpoints of this process: a stream of batches
 * of two BIGINT columns (a repartitioned join's key and payload) encoded, sent and decoded as an
 * exchange's are, without the query around it. Prints the best of the runs in GB/s of Arrow bytes.
 *
 * <p>{@code java -cp ... io.warpdb.cluster.UcxChannelBench [rows per batch, default 2^15] [MB per run, default 512]
 * [runs, default 5] [--compressed]}
 */
public final class UcxChannelBench {
    private static final Schema SCHEMA = new Schema(List.of(new Field("k", DataType.BIGINT), new Field("p", DataType.BIGINT)));
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private UcxChannelBench() {
    }

    public static void main(String[] args) throws Exception {
        List<String> plain = Arrays.stream(args).filter(a -> !a.startsWith("--")).toList();
        int rows = plain.size() > 0 ? parse(plain.get(0)) : 1 << 15;
        long megabytes = plain.size() > 1 ? Long.parseLong(plain.get(1)) : 512;
        int runs = plain.size() > 2 ? Integer.parseInt(plain.get(2)) : 5;
        boolean compressed = Arrays.asList(args).contains("--compressed");
        long batchBytes = 2L * Long.BYTES * rows;
        int batches = (int) Math.max(1, megabytes * 1_000_000 / batchBytes);
        try (BufferAllocator allocator = new RootAllocator();
                Batch batch = randomBatch(rows, allocator)) {
            UcxTransport sender = UcxTransport.start("sender", (channel, request) -> {
                throw new AssertionError("the sender accepts nothing");
            });
            UcxTransport receiver = UcxTransport.start("receiver", (channel, request) -> new Thread(() -> {
                try (channel; UcxChannel.BatchSender out = channel.sendingBatches(SCHEMA, compressed, new WireCodec.Choices(SCHEMA),
                        allocator, PATIENCE)) {
                    int count = Integer.parseInt(StandardCharsets.UTF_8.decode(request).toString());
                    for (int b = 0; b < count; b++) {
                        out.put(batch);
                    }
                    out.end();
                }
            }, "bench-sender").start());
            try {
                double best = Double.MAX_VALUE;
                for (int run = 0; run < runs; run++) {
                    long start = System.nanoTime();
                    long received = 0;
                    UcxChannel channel = sender.open(receiver.address(), "receiver",
                            ByteBuffer.wrap(Integer.toString(batches).getBytes(StandardCharsets.UTF_8)));
                    try (UcxChannel.ReceivedBatches in = channel.receiveBatches(allocator, PATIENCE, "late")) {
                        for (Batch next = in.next(); next != null; next = in.next()) {
                            try (Batch b = next) {
                                received += b.rowCount();
                            }
                        }
                    }
                    double seconds = (System.nanoTime() - start) / 1e9;
                    if (received != (long) batches * rows) {
                        throw new IllegalStateException("received " + received + " rows of " + (long) batches * rows);
                    }
                    best = Math.min(best, seconds);
                    System.out.printf(Locale.ROOT, "run %d: %.3f s, %.2f GB/s%n", run, seconds, batches * batchBytes / seconds / 1e9);
                }
                System.out.printf(Locale.ROOT, "rows per batch %d, batches %d, %s: best %.3f s, %.2f GB/s of Arrow bytes%n", rows, batches,
                        compressed ? "compressed" : "uncompressed", best, batches * batchBytes / best / 1e9);
            } finally {
                sender.close();
                receiver.close();
            }
        }
    }

    private static int parse(String text) {
        return text.startsWith("2^") ? 1 << Integer.parseInt(text.substring(2)) : Integer.parseInt(text);
    }

    /** Random keys and payloads, as seed 000 section 6.2's (random keys do not compress). */
    private static Batch randomBatch(int rows, BufferAllocator allocator) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        BigIntVector k = new BigIntVector("k", allocator);
        BigIntVector p = new BigIntVector("p", allocator);
        k.allocateNew(rows);
        p.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            k.set(i, random.nextLong());
            p.set(i, i);
        }
        k.setValueCount(rows);
        p.setValueCount(rows);
        List<FieldVector> vectors = List.of(k, p);
        return new Batch(SCHEMA, vectors, Arrays.asList(null, null), rows);
    }
}
