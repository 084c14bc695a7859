package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.warpdb.core.exec.Support;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP on the GPU (exact sums of values and of the parts
 * of their squares, or two passes over DOUBLE values, finished on the host) against the CPU's
 * Welford accumulator: INTEGER, BIGINT, DECIMAL of 5, 9 and 18 digits and DOUBLE arguments, beside
 * other aggregates (TPC-DS q17's AVG, COUNT, STDDEV_SAMP), without keys and grouped by every path,
 * at the harness's sizes with NULLs, groups of one value (sample variances NULL), duplicates, skew
 * and extremes (NaN and infinities among the doubles). DECIMALs of more than 18 digits stay on the CPU.
 */
class GpuVarianceTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.VARCHAR), new Field("i", DataType.INTEGER),
            new Field("d", DataType.decimal(9, 2)), new Field("q", DataType.decimal(5, 0)), new Field("x", DataType.DOUBLE),
            new Field("b", DataType.BIGINT), new Field("m", DataType.decimal(18, 4)));
    /** The argument columns: i, d, q, x, b and m. */
    private static final int[] ARGUMENTS = {1, 2, 3, 4, 5, 6};
    /**
     * With extremes, all but b: the GPU's exact variance of BIGINTs beyond 2^53 is not the CPU's
     * variance of their doubles when they differ by less than a double's spacing there
     * ({@link #bigintVariancesAreExact}).
     */
    private static final int[] ARGUMENTS_WITH_EXTREMES = {1, 2, 3, 4, 6};

    @Test
    void theGpuComputesVariancesOfEveryNumericTypeButWideDecimals() {
        try (ListSource source = randomSource(new RandomBatches(1), SCHEMA, 40, Options.plain().withNulls(0.2).withDistinct(5))) {
            for (int keys = 0; keys <= 1; keys++) {
                AggregateNode node = node(source, keys, ARGUMENTS);
                assertEquals(Support.YES, GpuAggregate.supports(node));
                cpuRows(node);
            }
        }
        Schema wide = Schema.of(new Field("w", DataType.decimal(38, 2)));
        AggCall call = new AggCall(AggFunction.STDDEV_SAMP, List.of(0), false, DataType.DOUBLE, "s");
        AggregateNode refused = new AggregateNode(new ValuesNode(wide, List.of()), List.of(), List.of(call),
                Schema.of(new Field("s", DataType.DOUBLE)));
        assertFalse(GpuAggregate.supports(refused).supported());
    }

    @Test
    void variancesMatchTheCpu() {
        GpuTests.assumeGpu();
        for (Options options : List.of(Options.plain().withNulls(0.2).withDistinct(30), Options.plain().withNulls(0.1).withExtremes(),
                Options.plain().withZipf().withDistinct(8))) {
            RandomBatches random = new RandomBatches(90);
            for (int rows : RandomBatches.SIZES) {
                try (ListSource source = randomSource(random, SCHEMA, rows, options)) {
                    for (AggregationPath path : new AggregationPath[] {AggregationPath.UNGROUPED, AggregationPath.HASH,
                            AggregationPath.SORT, null}) {
                        AggregateNode node = node(source, path == AggregationPath.UNGROUPED ? 0 : 1,
                                options.extremes() ? ARGUMENTS_WITH_EXTREMES : ARGUMENTS);
                        assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, path), false,
                                "seed 90, rows " + rows + ", path " + path + ", " + options);
                    }
                }
            }
        }
    }

    /**
     * BIGINTs next to Long.MAX_VALUE one apart: the GPU's sums are exact (VAR_SAMP 0.5), where the
     * CPU, as DuckDB, takes the variance of their doubles, both 2^63 (0).
     */
    @Test
    void bigintVariancesAreExact() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("b", DataType.BIGINT));
        List<List<Literal>> rows = List.of(List.of(Literal.ofLong(Long.MAX_VALUE, DataType.BIGINT)),
                List.of(Literal.ofLong(Long.MAX_VALUE - 1, DataType.BIGINT)), List.of(Literal.ofNull(DataType.BIGINT)));
        List<AggCall> calls = List.of(new AggCall(AggFunction.VAR_SAMP, List.of(0), false, DataType.DOUBLE, "vs"),
                new AggCall(AggFunction.VAR_POP, List.of(0), false, DataType.DOUBLE, "vp"));
        AggregateNode node = new AggregateNode(new ValuesNode(schema, rows), List.of(), calls,
                Schema.of(new Field("vs", DataType.DOUBLE), new Field("vp", DataType.DOUBLE)));
        assertEquals(List.of(List.of(0.5, 0.25)), planRows(node, "gpu"));
    }

    /** Every variance function over the columns {@code args}, with COUNT(*), AVG(i) and COUNT(d) beside them; keys: column k. */
    private static AggregateNode node(ListSource source, int keyCount, int[] args) {
        List<AggCall> calls = new ArrayList<>();
        calls.add(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"));
        for (int arg : args) {
            for (AggFunction f : List.of(AggFunction.VAR_POP, AggFunction.VAR_SAMP, AggFunction.STDDEV_POP, AggFunction.STDDEV_SAMP)) {
                calls.add(new AggCall(f, List.of(arg), false, DataType.DOUBLE, f.name().toLowerCase() + arg));
            }
        }
        calls.add(new AggCall(AggFunction.AVG, List.of(1), false, DataType.DOUBLE, "avg1"));
        calls.add(new AggCall(AggFunction.COUNT, List.of(2), false, DataType.BIGINT, "count2"));
        List<Field> out = new ArrayList<>();
        List<Integer> keys = keyCount == 0 ? List.of() : List.of(0);
        keys.forEach(k -> out.add(SCHEMA.field(k)));
        calls.forEach(c -> out.add(new Field(c.name(), c.type())));
        return new AggregateNode(scan(source), keys, calls, new Schema(out));
    }
}
