package io.warpdb.exec.gpu.bench;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.decode.DeviceDecoder;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.EncodedChunk;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * GPU decode throughput per encoding and cascade, next to the host-to-device copy bandwidth from
 * pinned memory: {@code run.sh main io.warpdb.exec.gpu.bench.DecodeBench [log2 rows, default 23]}.
 * A few TPC-H-like lineitem columns are encoded by storage's codec in chunks of 2^20 rows, once
 * with each encoding the selector can choose and once as it chooses ("auto"); each is then decoded
 * by {@link DeviceDecoder} into a device column, best of 3 after a warm-up. Throughput is decoded
 * bytes (values and validity, as the device column holds them) per second: of the kernels alone,
 * and end to end (copying the encoded chunks through pinned staging, included).
 */
public final class DecodeBench {
    private static final int CHUNK_ROWS = 1 << 20;
    private static final int RUNS = 3;

    /** A generated column: its type and row i's value (null = NULL; strings as codes into {@code strings}). */
    private record BenchColumn(String name, DataType type, List<String> strings, LongUnaryOperator valueOfRow, double nullFraction) {
    }

    public static void main(String[] args) {
        int log2 = args.length > 0 ? Integer.parseInt(args[0]) : 23;
        long rows = 1L << log2;
        CudaDevice device = CudaDevice.get();
        System.out.println("device: " + device + ", rows: 2^" + log2 + " in chunks of 2^20");
        System.out.printf("host-to-device copy from pinned memory: %.1f GB/s%n", pinnedCopyBandwidth(device));
        List<BenchColumn> columns = List.of(
                new BenchColumn("l_orderkey (sorted, ~4 rows per key)", DataType.BIGINT, null, i -> i / 4 * 3 + (i % 4 == 3 ? 1 : 0), 0),
                new BenchColumn("l_quantity (1..50)", DataType.INTEGER, null, i -> 1 + uniform(i, 50), 0),
                new BenchColumn("l_extendedprice (decimal)", DataType.decimal(15, 2), null, i -> 90_000 + uniform(i, 10_000_000), 0),
                new BenchColumn("l_discount (0.00..0.10)", DataType.decimal(15, 2), null, i -> uniform(i, 11), 0),
                new BenchColumn("l_shipdate (7 years of days)", DataType.DATE, null, i -> 8035 + uniform(i, 2526), 0),
                new BenchColumn("l_returnflag (3 strings)", DataType.chars(1), List.of("A", "N", "R"), i -> uniform(i, 3), 0),
                new BenchColumn("l_tax with 10% NULL", DataType.decimal(15, 2), null, i -> uniform(i, 9), 0.1));
        System.out.printf("%-40s %-26s %10s %10s %9s %9s %12s %12s%n", "column", "encoding", "encoded MB", "decoded MB",
                "ratio", "ms", "kernel GB/s", "e2e GB/s");
        try (BufferAllocator allocator = new RootAllocator()) {
            for (BenchColumn column : columns) {
                List<String> encodings = new ArrayList<>(ChunkCodec.candidateEncodings(column.type()));
                encodings.add(0, "auto");
                for (String encoding : encodings) {
                    List<byte[]> chunks = encode(column, rows, encoding, allocator);
                    measure(column, encoding, chunks, device);
                }
            }
        }
    }

    private static void measure(BenchColumn column, String encoding, List<byte[]> chunks, CudaDevice device) {
        long encodedBytes = chunks.stream().mapToLong(c -> c.length).sum();
        long bestTotal = Long.MAX_VALUE;
        long bestKernels = Long.MAX_VALUE;
        long decodedBytes = 0;
        for (int run = 0; run <= RUNS; run++) {
            List<EncodedColumnChunk> described = new ArrayList<>();
            for (byte[] chunk : chunks) {
                described.add(ChunkCodec.describe(ByteBuffer.wrap(chunk), column.type()));
            }
            try (DeviceWork work = new DeviceWork(device)) {
                long start = System.nanoTime();
                try (DeviceColumn decoded = DeviceDecoder.decode(column.type(), described, work)) {
                    work.synchronize();
                    decodedBytes = decoded.bytes();
                }
                long total = System.nanoTime() - start;
                if (run > 0) {
                    bestTotal = Math.min(bestTotal, total);
                    bestKernels = Math.min(bestKernels, work.kernelNanos());
                }
            }
        }
        System.out.printf("%-40s %-26s %10.1f %10.1f %9.2f %9.2f %12.1f %12.1f%n", column.name(), encoding, encodedBytes / 1e6,
                decodedBytes / 1e6, decodedBytes / (double) encodedBytes, bestTotal / 1e6, decodedBytes / (double) bestKernels,
                decodedBytes / (double) bestTotal);
    }

    /** The column's rows in chunks of 2^20, each encoded as {@code encoding} ("auto": as the selector chooses). */
    private static List<byte[]> encode(BenchColumn column, long rows, String encoding, BufferAllocator allocator) {
        List<byte[]> chunks = new ArrayList<>();
        StringDictionary dictionary = column.strings() == null ? null : StringDictionary.ofDistinct(column.strings());
        for (long first = 0; first < rows; first += CHUNK_ROWS) {
            int count = (int) Math.min(CHUNK_ROWS, rows - first);
            try (FieldVector vector = Vectors.allocate("c", column.type(), count, allocator)) {
                for (int i = 0; i < count; i++) {
                    long row = first + i;
                    boolean isNull = uniform(~row, 1000) < column.nullFraction() * 1000;
                    Vectors.setNormalized(vector, column.type(), i, isNull ? null : column.valueOfRow().applyAsLong(row));
                }
                vector.setValueCount(count);
                EncodedChunk chunk = encoding.equals("auto")
                        ? ChunkCodec.encode(vector, column.type(), dictionary, count)
                        : ChunkCodec.encodeAs(vector, column.type(), dictionary, count, encoding);
                chunks.add(chunk.bytes());
            }
        }
        return chunks;
    }

    /** A value in [0, bound) that looks random but depends only on {@code row} (SplitMix64's finalizer). */
    private static int uniform(long row, int bound) {
        long h = row + 0x9E3779B97F4A7C15L;
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        return (int) Math.floorMod(h, (long) bound);
    }

    /** Best of 3 copies of 256 MiB from pinned host memory to the device, in GB/s. */
    private static double pinnedCopyBandwidth(CudaDevice device) {
        long bytes = 256L << 20;
        Pointer host = new Pointer();
        device.bind();
        JCudaDriver.cuMemAllocHost(host, bytes);
        try (DeviceWork work = new DeviceWork(device); DeviceBuffer target = work.allocate(bytes, "copy bandwidth")) {
            long best = Long.MAX_VALUE;
            for (int run = 0; run <= RUNS; run++) {
                long start = System.nanoTime();
                target.copyFromHost(host, 0, bytes, work.stream());
                work.synchronize();
                if (run > 0) {
                    best = Math.min(best, System.nanoTime() - start);
                }
            }
            return bytes / (double) best;
        } finally {
            JCudaDriver.cuMemFreeHost(host);
        }
    }
}
