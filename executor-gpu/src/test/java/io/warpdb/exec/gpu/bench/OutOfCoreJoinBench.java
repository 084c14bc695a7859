package io.warpdb.exec.gpu.bench;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.join.GpuJoin;
import io.warpdb.exec.gpu.join.OutOfCoreJoin;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.OutOfCoreReport;
import io.warpdb.exec.gpu.partition.OutOfCoreResult;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Out-of-core join time for inputs of 0.5x to 4x a device budget: {@code run.sh main
 * io.warpdb.exec.gpu.bench.OutOfCoreJoinBench [budget MiB, default 1024]} (give the JVM host
 * memory: {@code JAVA_OPTS="-Xmx16g -XX:MaxDirectMemorySize=96g"}). Both sides hold unique BIGINT
 * keys with a BIGINT payload, in host memory (Arrow), the probe side's keys scrambled, so every
 * row matches once. Per size it prints the in-memory rate (the in-core join of the same host
 * inputs on the whole device: copy in, join, copy out) and the out-of-core rate within the
 * budget, with the share of the out-of-core time its copies would take at the copy rates
 * measured here (an estimate: the pipeline overlaps them with kernels) and the share in kernels.
 * Best of 2 after a warm-up.
 */
public final class OutOfCoreJoinBench {
    private static final int RUNS = 2;
    private static final int BATCH_ROWS = 1 << 20;
    private static final double[] FACTORS = {0.5, 1, 2, 4};

    public static void main(String[] args) {
        long budget = (args.length > 0 ? Long.parseLong(args[0]) : 1024) << 20;
        CudaDevice device = CudaDevice.get();
        Schema left = Schema.of(new Field("lk", DataType.BIGINT), new Field("lv", DataType.BIGINT));
        Schema right = Schema.of(new Field("rk", DataType.BIGINT), new Field("rv", DataType.BIGINT));
        JoinNode node = new JoinNode(new ValuesNode(left, List.of()), new ValuesNode(right, List.of()), JoinKind.INNER,
                List.of(0), List.of(0), null, Schema.of(left.field(0), left.field(1), right.field(0), right.field(1)));
        System.out.println("device: " + device + ", budget " + (budget >> 20) + " MiB");
        try (BufferAllocator allocator = new RootAllocator()) {
            double[] rates = copyRates(device, allocator);
            System.out.printf("copy rates: %.1f GB/s to device, %.1f GB/s to host%n", rates[0] / 1e9, rates[1] / 1e9);
            System.out.println("inputs/budget  rows/side  in-memory ms  out-of-core ms  ratio  transfers  kernels  partitions per device");
            for (double factor : FACTORS) {
                long rows = (long) (factor * budget / 2 / HostTable.rowBytes(left));
                long inMemory = Long.MAX_VALUE;
                long outOfCore = Long.MAX_VALUE;
                OutOfCoreReport report = null;
                for (int run = 0; run <= RUNS; run++) {
                    long start = System.nanoTime();
                    inCore(node, table(left, rows, true, allocator), table(right, rows, false, allocator), device, allocator);
                    long mid = System.nanoTime();
                    try (OutOfCoreResult result = OutOfCoreJoin.run(node, table(left, rows, true, allocator),
                            table(right, rows, false, allocator), budget, null, List.of(device), allocator)) {
                        report = result.report();
                    }
                    long end = System.nanoTime();
                    if (run > 0) {
                        inMemory = Math.min(inMemory, mid - start);
                        outOfCore = Math.min(outOfCore, end - mid);
                    }
                }
                double transfers = report.bytesToDevice() / rates[0] + report.bytesToHost() / rates[1];
                System.out.printf("%13.1fx  %9d  %12.1f  %14.1f  %5.2f  %8.0f%%  %6.0f%%  %s%n", factor, rows, inMemory / 1e6,
                        outOfCore / 1e6, (double) inMemory / outOfCore, 100 * transfers / (outOfCore / 1e9),
                        100.0 * report.kernelNanos() / outOfCore, report.perDevice().describe());
            }
        }
    }

    /** The in-core join of host inputs on the whole device: copy in, join, copy out (inputs closed). */
    private static void inCore(JoinNode node, HostTable left, HostTable right, CudaDevice device, BufferAllocator allocator) {
        try (left; right; DeviceWork work = new DeviceWork(device);
                DeviceTable l = HostToDevice.upload(left.schema(), left.batches(), work);
                DeviceTable r = HostToDevice.upload(right.schema(), right.batches(), work);
                DeviceTable out = GpuJoin.run(node, l, r, null, work)) {
            for (int from = 0; from < out.rows(); from += BATCH_ROWS) {
                DeviceToHost.download(out, from, Math.min(BATCH_ROWS, out.rows() - from), allocator, work).close();
            }
        }
    }

    /** Bytes per second host to device and back, over 256 MiB of BIGINT columns. */
    private static double[] copyRates(CudaDevice device, BufferAllocator allocator) {
        long rows = (256L << 20) / 16;
        try (HostTable t = table(Schema.of(new Field("a", DataType.BIGINT), new Field("b", DataType.BIGINT)), rows, false, allocator);
                DeviceWork work = new DeviceWork(device)) {
            double[] best = {0, 0};
            for (int run = 0; run < 3; run++) {
                long start = System.nanoTime();
                try (DeviceTable d = HostToDevice.upload(t.schema(), t.batches(), work)) {
                    work.synchronize();
                    long mid = System.nanoTime();
                    for (int from = 0; from < d.rows(); from += BATCH_ROWS) {
                        DeviceToHost.download(d, from, (int) Math.min(BATCH_ROWS, d.rows() - from), allocator, work).close();
                    }
                    long end = System.nanoTime();
                    best[0] = Math.max(best[0], rows * 16 / ((mid - start) / 1e9));
                    best[1] = Math.max(best[1], rows * 16 / ((end - mid) / 1e9));
                }
            }
            return best;
        }
    }

    /** Rows of (key, payload): keys 0..rows-1, scrambled by an odd multiplier modulo a power of two above rows when asked. */
    private static HostTable table(Schema schema, long rows, boolean scrambled, BufferAllocator allocator) {
        long mask = Long.highestOneBit(Math.max(1, rows - 1)) * 2 - 1;
        List<Batch> batches = new ArrayList<>();
        long next = 0;
        for (long from = 0; from < rows; from += BATCH_ROWS) {
            int n = (int) Math.min(BATCH_ROWS, rows - from);
            BigIntVector key = (BigIntVector) Vectors.allocate(schema.field(0).name(), DataType.BIGINT, n, allocator);
            BigIntVector value = (BigIntVector) Vectors.allocate(schema.field(1).name(), DataType.BIGINT, n, allocator);
            for (int i = 0; i < n; i++) {
                long k;
                if (scrambled) {
                    // A bijection of [0, mask]; keys beyond rows are skipped, so each key below rows comes once.
                    do {
                        k = (next++ * 0x9E3779B97F4A7C15L) & mask;
                    } while (k >= rows);
                } else {
                    k = from + i;
                }
                key.set(i, k);
                value.set(i, k * 7);
            }
            key.setValueCount(n);
            value.setValueCount(n);
            List<FieldVector> vectors = List.of(key, value);
            List<io.warpdb.core.batch.StringDictionary> dictionaries = new ArrayList<>();
            dictionaries.add(null);
            dictionaries.add(null);
            batches.add(new Batch(schema, vectors, dictionaries, n));
        }
        return new HostTable(schema, batches);
    }
}
