package io.warpdb.exec.gpu.bench;

import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.join.GpuJoin;
import io.warpdb.exec.gpu.join.JoinStrategy;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;

/**
 * GPU join throughput on unique 8-byte keys, data resident: {@code run.sh main
 * io.warpdb.exec.gpu.bench.JoinBench [log2 rows per side, default 27] [--algorithm hash|merge]},
 * by the algorithm the rule picks (the hash join for INNER), or the one named (the same as
 * {@code JAVA_OPTS=-Dwarpdb.gpu.join=...}). The build side holds the
 * keys 0..N-1 in order, the probe side the same keys scrambled (multiplication by an odd
 * constant modulo N), so every probe row matches exactly one build row. Best of 3 after a warm-up;
 * throughput counts the input tuples of both sides.
 */
public final class JoinBench {
    private static final int RUNS = 3;

    public static void main(String[] args) {
        int log2 = 27;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--algorithm") && i + 1 < args.length) {
                System.setProperty(JoinStrategy.OVERRIDE_PROPERTY, args[++i]);
            } else {
                log2 = Integer.parseInt(args[i]);
            }
        }
        int rows = 1 << log2;
        CudaDevice device = CudaDevice.get();
        System.out.println("device: " + device + ", rows per side: 2^" + log2);
        Schema left = Schema.of(new Field("lk", DataType.BIGINT));
        Schema right = Schema.of(new Field("rk", DataType.BIGINT));
        JoinNode node = new JoinNode(new ValuesNode(left, List.of()), new ValuesNode(right, List.of()), JoinKind.INNER,
                List.of(0), List.of(0), null, Schema.of(left.field(0), right.field(0)));
        try (DeviceWork work = new DeviceWork(device);
                DeviceTable probe = new DeviceTable(left, rows, List.of(keys(rows, true, work)));
                DeviceTable build = new DeviceTable(right, rows, List.of(keys(rows, false, work)))) {
            long best = Long.MAX_VALUE;
            int out = 0;
            for (int run = 0; run <= RUNS; run++) {
                long start = System.nanoTime();
                try (DeviceWork step = new DeviceWork(device); DeviceTable result = GpuJoin.run(node, probe, build, null, step)) {
                    step.synchronize();
                    out = result.rows();
                }
                if (run > 0) {
                    best = Math.min(best, System.nanoTime() - start);
                }
            }
            System.out.printf("INNER join 2^%d x 2^%d unique BIGINT keys, %s: %d output rows, %.2f ms, %.2f G input tuples/s%n",
                    log2, log2, JoinStrategy.choose(node).label(), out, best / 1e6, 2.0 * rows / (best / 1e9) / 1e9);
        }
    }

    private static DeviceColumn keys(int rows, boolean scrambled, DeviceWork work) {
        long mask = rows - 1;
        return BenchColumns.generate(DataType.BIGINT, rows, i -> scrambled ? (i * 0x9E3779B97F4A7C15L) & mask : i, work);
    }
}
