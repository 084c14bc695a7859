package io.warpdb.exec.gpu.partition;

import io.warpdb.core.exec.Support;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.bench.BenchColumns;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Throughput of the GPU hash partitioner (seed 000 section 3.1) with the data in device memory,
 * against the device's copy bandwidth measured in the same run: 2^n rows of an 8-byte key
 * (uniform random BIGINT) and an 8-byte payload into 2, 3, 8, 64 and 256 parts. From the project
 * root after {@code ../shared/gpu/bundle.sh executor-gpu}:
 * {@code bash .gpu-bundle/run.sh main io.warpdb.exec.gpu.partition.GpuPartitionBench 26 28}
 * (the log2 row counts; default 26 and 28). Input GB/s counts the key and payload bytes once;
 * read+write counts them once read and once written, as the copy's figure does (cuMemcpyDtoD of
 * the same 16 bytes a row), so "% of copy" compares like with like. Kernel time is the sum of the
 * partitioner's kernels (count, scan, starts, scatter), the best of 5 runs after a warm-up.
 */
public final class GpuPartitionBench {
    private static final int RUNS = 5;
    private static final int[] PARTS = {2, 3, 8, 64, 256};
    private static final long ROW_BYTES = 16;

    private GpuPartitionBench() {
    }

    public static void main(String[] args) {
        Support available = CudaDevice.availability();
        if (!available.supported()) {
            System.err.println("GpuPartitionBench needs a CUDA device: " + available.reason());
            System.exit(2);
        }
        int[] log2s = args.length == 0 ? new int[] {26, 28} : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        CudaDevice device = CudaDevice.get();
        System.out.println("device: " + device);
        for (int log2 : log2s) {
            run(device, log2);
        }
    }

    private static void run(CudaDevice device, int log2) {
        int rows = 1 << log2;
        SplittableRandom random = new SplittableRandom(log2);
        Schema schema = Schema.of(new Field("k", DataType.BIGINT), new Field("v", DataType.BIGINT));
        try (DeviceWork work = new DeviceWork(device);
                DeviceColumn keys = BenchColumns.generate(DataType.BIGINT, rows, row -> random.nextLong(), work);
                DeviceColumn payloads = BenchColumns.generate(DataType.BIGINT, rows, row -> row, work);
                DeviceTable table = new DeviceTable(schema, rows, List.of(keys.share(), payloads.share()))) {
            double copy = BenchColumns.copyBandwidth(List.of(keys.values(), payloads.values()), work, RUNS);
            System.out.printf("%nrows: 2^%d (%d), 8-byte keys + 8-byte payloads; copy (cuMemcpyDtoD of the same bytes, read+write): %.1f GB/s%n",
                    log2, rows, copy / 1e9);
            System.out.println("| parts | kernel ms | input GB/s | tuples/s (G) | read+write GB/s | % of copy | largest part |");
            System.out.println("|---|---|---|---|---|---|---|");
            for (int parts : PARTS) {
                measure(table, parts, copy);
            }
        }
    }

    private static void measure(DeviceTable table, int parts, double copy) {
        long best = Long.MAX_VALUE;
        int largest = 0;
        for (int run = 0; run <= RUNS; run++) {
            try (DeviceWork work = new DeviceWork(CudaDevice.get());
                    GpuHashPartitioner.Parts grouped = GpuHashPartitioner.partition(table, List.of(0), parts, work)) {
                work.synchronize();
                if (grouped.starts()[parts] != table.rows()) {
                    throw new IllegalStateException(parts + " parts hold " + grouped.starts()[parts] + " rows, not " + table.rows());
                }
                for (int p = 0; p < parts; p++) {
                    largest = Math.max(largest, grouped.size(p));
                }
                if (run > 0) {
                    best = Math.min(best, work.kernelNanos());
                }
            }
        }
        double seconds = best / 1e9;
        double input = (double) table.rows() * ROW_BYTES;
        System.out.printf("| %d | %.2f | %.0f | %.2f | %.0f | %.0f%% | %d |%n", parts, best / 1e6, input / seconds / 1e9,
                table.rows() / seconds / 1e9, 2 * input / seconds / 1e9, 100 * 2 * input / seconds / copy, largest);
    }

}
