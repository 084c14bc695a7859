package io.warpdb.exec.gpu.bench;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.Kernel;
import io.warpdb.exec.gpu.select.FilterProject;
import java.util.List;
import java.util.SplittableRandom;

/**
 * SELECT and PROJECT throughput with the data already in device memory, as a share of the
 * device's copy bandwidth measured in the same run:
 * {@code run.sh main io.warpdb.exec.gpu.bench.GpuOperatorBench [log2 rows, default 28]}.
 * Bytes counted per operator: every input byte read once plus every output byte written; before
 * each SELECT, its floor: the column read once and the kept rows counted, nothing written. Every
 * operator runs with FilterProject's v1 and v2 kernels, a row each.
 */
public final class GpuOperatorBench {
    private static final int RUNS = 5;
    private static final long VALUE_RANGE = 1_000_000_000L;
    /** Each operator under both FilterProject kernel sets (FilterProject.KERNEL_PROPERTY), in one run. */
    private static final List<String> KERNELS = List.of("v1", "v2");

    public static void main(String[] args) {
        int log2 = args.length > 0 ? Integer.parseInt(args[0]) : 28;
        int rows = 1 << log2;
        CudaDevice device = CudaDevice.get();
        System.out.println("device: " + device + ", rows: 2^" + log2);
        try (DeviceWork work = new DeviceWork(device);
                DeviceColumn a = randomColumn(rows, DataType.BIGINT, 1, work);
                DeviceColumn b = randomColumn(rows, DataType.BIGINT, 2, work);
                DeviceColumn price = randomColumn(rows, DataType.decimal(12, 2), 3, work);
                DeviceColumn discount = randomColumn(rows, DataType.decimal(12, 2), 4, work)) {
            double copy = BenchColumns.copyBandwidth(List.of(a.values()), work, RUNS);
            System.out.printf("copy (cuMemcpyDtoD, read+write): %.1f GB/s%n", copy / 1e9);
            System.out.println("| operator | rows out | kernel ms | GB/s | % of copy |");
            System.out.println("|---|---|---|---|---|");
            Schema one = Schema.of(new Field("a", DataType.BIGINT));
            try (DeviceTable t = new DeviceTable(one, rows, List.of(a.share()))) {
                ColumnRef ref = new ColumnRef(0, DataType.BIGINT);
                for (double selectivity : new double[] {0.01, 0.10, 0.50}) {
                    readCount(a, rows, (long) (selectivity * VALUE_RANGE), copy);
                    Expr predicate = Call.of(Op.LT, DataType.BOOLEAN, ref,
                            Literal.ofLong((long) (selectivity * VALUE_RANGE), DataType.BIGINT));
                    measure("SELECT a WHERE a < x (" + (int) (selectivity * 100) + "%)", t, predicate, List.of(ref), one,
                            8L, 8L, copy);
                }
            }
            Schema two = Schema.of(new Field("a", DataType.BIGINT), new Field("b", DataType.BIGINT));
            try (DeviceTable t = new DeviceTable(two, rows, List.of(a.share(), b.share()))) {
                Expr sum = Call.of(Op.ADD, DataType.BIGINT, new ColumnRef(0, DataType.BIGINT), new ColumnRef(1, DataType.BIGINT));
                measure("PROJECT a + b", t, null, List.of(sum), Schema.of(new Field("s", DataType.BIGINT)), 16L, 8L, copy);
                Expr tenPercent = Call.of(Op.LT, DataType.BOOLEAN, new ColumnRef(0, DataType.BIGINT),
                        Literal.ofLong(VALUE_RANGE / 10, DataType.BIGINT));
                // Reads a for every row, b only for the 10% kept; counted as both read in full.
                measure("SELECT a + b WHERE a < x (10%, interpreted output)", t, tenPercent, List.of(sum),
                        Schema.of(new Field("s", DataType.BIGINT)), 16L, 8L, copy);
            }
            DataType money = DataType.decimal(12, 2);
            Schema prices = Schema.of(new Field("price", money), new Field("discount", money));
            try (DeviceTable t = new DeviceTable(prices, rows, List.of(price.share(), discount.share()))) {
                DataType product = DataType.decimal(18, 4);
                Expr unit = Literal.ofLong(100, money);
                Expr revenue = Call.of(Op.MULTIPLY, product, new ColumnRef(0, money),
                        Call.of(Op.SUBTRACT, money, unit, new ColumnRef(1, money)));
                measure("PROJECT price * (1 - discount) (DECIMAL)", t, null, List.of(revenue),
                        Schema.of(new Field("r", product)), 16L, 8L, copy);
            }
        }
    }

    private static void measure(String name, DeviceTable input, Expr predicate, List<Expr> exprs, Schema schema,
            long inBytesPerRow, long outBytesPerRow, double copy) {
        CudaDevice device = CudaDevice.get();
        for (String kernels : KERNELS) {
            System.setProperty(FilterProject.KERNEL_PROPERTY, kernels);
            long best = Long.MAX_VALUE;
            int outRows = 0;
            for (int run = 0; run <= RUNS; run++) {
                try (DeviceWork work = new DeviceWork(device);
                        DeviceTable out = FilterProject.run(input, predicate, exprs, schema, null, work)) {
                    work.synchronize();
                    outRows = out.rows();
                    if (run > 0) {
                        best = Math.min(best, work.kernelNanos());
                    }
                }
            }
            double bytes = (double) input.rows() * inBytesPerRow + (double) outRows * outBytesPerRow;
            double rate = bytes / (best / 1e9);
            System.out.printf("| %s [%s] | %d | %.2f | %.0f | %.0f%% |%n", name, kernels, outRows, best / 1e6, rate / 1e9,
                    100 * rate / copy);
        }
        System.clearProperty(FilterProject.KERNEL_PROPERTY);
    }


    /** The floor of SELECT: the column read once (vector loads), counting the rows it would keep. */
    private static void readCount(DeviceColumn a, int rows, long constant, double copy) {
        CudaDevice device = CudaDevice.get();
        long best = Long.MAX_VALUE;
        long count = 0;
        for (int run = 0; run <= RUNS; run++) {
            try (DeviceWork work = new DeviceWork(device);
                    DeviceBuffer c = work.allocateZeroed(8, "count")) {
                Kernel k = work.kernel("select/filter_project", "read_count");
                int grid = device.smCount() * k.residentBlocksPerSm(256, 0);
                k.launch(work.stream(), grid, 256, 0, a.values(), (long) rows, constant, c);
                work.synchronize();
                count = work.downloadLongs(c, 1)[0];
                if (run > 0) {
                    best = Math.min(best, work.kernelNanos());
                }
            }
        }
        double rate = rows * 8.0 / (best / 1e9);
        System.out.printf("| READ a, count a < x (the floor) | %d | %.2f | %.0f | %.0f%% |%n", count, best / 1e6, rate / 1e9, 100 * rate / copy);
    }

    /** Uniform values in [0, 10^9) (for the DECIMAL discount column, seed 4: unscaled hundredths up to 0.10). */
    private static DeviceColumn randomColumn(int rows, DataType type, long seed, DeviceWork work) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean fraction = type.kind() == io.warpdb.core.types.TypeKind.DECIMAL && seed == 4;
        return BenchColumns.generate(type, rows, row -> fraction ? random.nextLong(11) : random.nextLong(VALUE_RANGE), work);
    }
}
