package io.warpdb.exec.gpu.plan;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
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
 * TIMESTAMP, INTERVAL, SMALLINT, TINYINT and REAL columns through whole plans on the GPU, in their
 * physical form, against the CPU: filters comparing them with their own type, CASE and COALESCE
 * among them, narrow integers widened by arithmetic, grouping by them with COUNT, MIN, MAX, AVG and
 * variances, sorting by them, and joining on them; at the harness's sizes with NULLs, duplicates,
 * skew and extremes (each type's limits). Placement is checked without a device.
 */
class CarriedTypesTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.SMALLINT), new Field("t", DataType.TIMESTAMP),
            new Field("n", DataType.TINYINT), new Field("r", DataType.REAL), new Field("d", DataType.INTERVAL),
            new Field("v", DataType.INTEGER));
    private static final ColumnRef K = new ColumnRef(0, DataType.SMALLINT);
    private static final ColumnRef T = new ColumnRef(1, DataType.TIMESTAMP);
    private static final ColumnRef N = new ColumnRef(2, DataType.TINYINT);
    private static final ColumnRef R = new ColumnRef(3, DataType.REAL);
    private static final ColumnRef D = new ColumnRef(4, DataType.INTERVAL);

    @Test
    void theGpuTakesEveryNodeAndTheCpuRunsThem() {
        try (ListSource source = randomSource(new RandomBatches(8), SCHEMA, 40, Options.plain().withNulls(0.2).withDistinct(6))) {
            for (PlanNode plan : plans(source, 40)) {
                assertAcceptedByGpu(plan);
                cpuRows(plan);
            }
        }
    }

    @Test
    void carriedTypesMatchTheCpu() {
        GpuTests.assumeGpu();
        for (Options options : List.of(Options.plain().withNulls(0.2).withDistinct(30), Options.plain().withZipf().withDistinct(8),
                Options.plain().withNulls(0.1).withExtremes())) {
            RandomBatches random = new RandomBatches(61);
            for (int rows : RandomBatches.SIZES) {
                try (ListSource source = randomSource(random, SCHEMA, rows, options)) {
                    for (PlanNode plan : plans(source, rows)) {
                        assertSameOnGpu(plan, plan instanceof SortNode, "seed 61, rows " + rows + ", " + options + ": " + plan.describe());
                    }
                }
            }
        }
    }

    /** The joins' inputs stay this small: a self-join on skewed keys of few distinct values has about rows^2 / distinct rows. */
    private static final int MAX_JOIN_ROWS = 2049;

    private static List<PlanNode> plans(ListSource source, int rows) {
        List<PlanNode> plans = new ArrayList<>();
        Expr later = Call.of(Op.GT, DataType.BOOLEAN, T, Literal.ofLong(0, DataType.TIMESTAMP));
        Expr small = Call.of(Op.LT, DataType.BOOLEAN, K, Literal.ofLong(100, DataType.INTEGER));
        plans.add(new FilterNode(scan(source), Call.of(Op.AND, DataType.BOOLEAN, later, small)));
        plans.add(new FilterNode(scan(source), Call.of(Op.OR, DataType.BOOLEAN, Call.of(Op.IS_NULL, DataType.BOOLEAN, D),
                Call.of(Op.GE, DataType.BOOLEAN, R, new Literal(0.5, DataType.REAL)))));
        List<Expr> exprs = List.of(Call.of(Op.CASE, DataType.TIMESTAMP, small, T, Literal.ofNull(DataType.TIMESTAMP)),
                Call.of(Op.COALESCE, DataType.REAL, R, new Literal(1.5, DataType.REAL)),
                Call.of(Op.ADD, DataType.INTEGER, K, N),
                Call.of(Op.MULTIPLY, DataType.DOUBLE, R, new Literal(2.0, DataType.DOUBLE)));
        plans.add(new ProjectNode(scan(source), exprs, Schema.of(new Field("t", DataType.TIMESTAMP), new Field("r", DataType.REAL),
                new Field("kn", DataType.INTEGER), new Field("r2", DataType.DOUBLE))));
        List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "c"),
                new AggCall(AggFunction.MIN, List.of(1), false, DataType.TIMESTAMP, "tmin"),
                new AggCall(AggFunction.MAX, List.of(4), false, DataType.INTERVAL, "dmax"),
                new AggCall(AggFunction.MAX, List.of(3), false, DataType.REAL, "rmax"),
                new AggCall(AggFunction.MIN, List.of(2), false, DataType.TINYINT, "nmin"),
                new AggCall(AggFunction.AVG, List.of(2), false, DataType.TINYINT, "navg"),
                new AggCall(AggFunction.SUM, List.of(0), false, DataType.BIGINT, "ksum"),
                new AggCall(AggFunction.VAR_SAMP, List.of(3), false, DataType.DOUBLE, "rvar"),
                new AggCall(AggFunction.STDDEV_POP, List.of(0), false, DataType.DOUBLE, "kdev"),
                new AggCall(AggFunction.COUNT, List.of(1), true, DataType.BIGINT, "tdistinct"));
        for (List<Integer> keys : List.of(List.of(0), List.of(1), List.of(3, 2))) {
            List<Field> fields = new ArrayList<>();
            keys.forEach(k -> fields.add(SCHEMA.field(k)));
            calls.forEach(c -> fields.add(new Field(c.name(), c.type())));
            plans.add(new AggregateNode(scan(source), keys, calls, new Schema(fields)));
        }
        List<SortKey> order = new ArrayList<>(List.of(new SortKey(3, true, false), new SortKey(1, false, true), new SortKey(0, false, false)));
        for (int c : new int[] {2, 4, 5}) {
            order.add(new SortKey(c, false, false));
        }
        plans.add(new SortNode(scan(source), order, 0, -1));
        if (rows > MAX_JOIN_ROWS) {
            return plans;
        }
        List<Field> joined = new ArrayList<>(SCHEMA.fields());
        joined.addAll(SCHEMA.fields());
        plans.add(new JoinNode(scan(source), scan(source), JoinKind.INNER, List.of(1, 0), List.of(1, 0), null, new Schema(joined)));
        return plans;
    }
}
