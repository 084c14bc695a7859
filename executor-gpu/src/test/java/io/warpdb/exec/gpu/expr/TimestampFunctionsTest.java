package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.value.Timestamps;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The date and time functions on TIMESTAMPs in the GPU interpreter (TS_TO_DATE, DATE_TO_TS,
 * TS_PART, TS_TRUNC, TS_ADD_MICROS, TS_ADD_MONTHS) against the CPU's DateFunctionEvaluator and
 * CastEvaluator: EXTRACT of every field, DATE_TRUNC to every unit, CASTs between DATE and
 * TIMESTAMP, month and microsecond arithmetic, DATE_DIFF of timestamps, the INTERVAL between two
 * timestamps and comparisons of DATEs with TIMESTAMPs, over timestamps near 1970 (the harness's)
 * and spread over centuries before and after it (a DATE's midnight plus microseconds), at the
 * harness's sizes with NULLs and, in a second round, extremes (the int64 limits: truncations and
 * additions past them fail with 22008 on both). Each function has a projection of its own, so
 * that one's error does not hide the others' results. Placement is checked without a device.
 */
class TimestampFunctionsTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("t", DataType.TIMESTAMP), new Field("d", DataType.DATE),
            new Field("n", DataType.BIGINT), new Field("i", DataType.INTEGER));
    private static final ColumnRef T = new ColumnRef(0, DataType.TIMESTAMP);
    private static final ColumnRef D = new ColumnRef(1, DataType.DATE);
    private static final ColumnRef N = new ColumnRef(2, DataType.BIGINT);
    private static final ColumnRef I = new ColumnRef(3, DataType.INTEGER);
    /** Timestamps over ±274 years: a DATE's midnight plus up to ±11.6 days of microseconds. */
    private static final Expr SPREAD = Call.of(Op.TIMESTAMP_ADD_MICROS, DataType.TIMESTAMP, Call.of(Op.CAST, DataType.TIMESTAMP, D), N);

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    static List<Expr> functions() {
        List<Expr> out = new ArrayList<>();
        for (Expr ts : List.of(T, SPREAD)) {
            for (Op op : List.of(Op.EXTRACT_YEAR, Op.EXTRACT_QUARTER, Op.EXTRACT_MONTH, Op.EXTRACT_DAY, Op.EXTRACT_DOW, Op.EXTRACT_DOY,
                    Op.EXTRACT_HOUR, Op.EXTRACT_MINUTE, Op.EXTRACT_SECOND, Op.EXTRACT_MILLISECOND, Op.EXTRACT_MICROSECOND,
                    Op.EXTRACT_EPOCH)) {
                out.add(Call.of(op, DataType.BIGINT, ts));
            }
            for (Timestamps.Unit unit : Timestamps.Unit.values()) {
                out.add(Call.of(Op.DATE_TRUNC, DataType.TIMESTAMP, Literal.ofString(unit.name().toLowerCase()), ts));
            }
            out.add(Call.of(Op.CAST, DataType.DATE, ts));
            out.add(Call.of(Op.TIMESTAMP_ADD_MONTHS, DataType.TIMESTAMP, ts, I));
            out.add(Call.of(Op.TIMESTAMP_ADD_MONTHS, DataType.TIMESTAMP, ts, Literal.ofLong(-13, DataType.INTEGER)));
            out.add(Call.of(Op.TIMESTAMP_ADD_MICROS, DataType.TIMESTAMP, ts, N));
        }
        out.add(Call.of(Op.EXTRACT_YEAR, DataType.INTEGER, SPREAD));
        out.add(Call.of(Op.EXTRACT_HOUR, DataType.BIGINT, D));
        out.add(Call.of(Op.DATE_TRUNC, DataType.TIMESTAMP, Literal.ofString("quarter"), D));
        out.add(Call.of(Op.DATE_DIFF_DAYS, DataType.BIGINT, T, SPREAD));
        out.add(Call.of(Op.DATE_DIFF_DAYS, DataType.BIGINT, D, T));
        out.add(Call.of(Op.SUBTRACT, DataType.INTERVAL, SPREAD, T));
        out.add(Call.of(Op.SUBTRACT, DataType.INTERVAL, T, D));
        return out;
    }

    @Test
    void theGpuAcceptsTimestampFunctionsAndTheCpuRunsThem() {
        try (ListSource source = randomSource(new RandomBatches(3), SCHEMA, 40, RandomBatches.Options.plain().withNulls(0.2))) {
            for (PlanNode plan : plans(source)) {
                assertAcceptedByGpu(plan);
                cpuRows(plan);
            }
        }
        // An unknown unit stays on the CPU, which reports it.
        Expr fortnight = Call.of(Op.DATE_TRUNC, DataType.TIMESTAMP, Literal.ofString("fortnight"), T);
        assertThrows(Unsupported.class, () -> ProgramCompiler.check(SCHEMA.fields().stream().map(Field::type).toList(), List.of(fortnight)));
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void timestampFunctionsMatchTheCpu(int rows) {
        assertPlansSameOnGpu(SCHEMA, rows, rows * 17L + 5, List.of(RandomBatches.Options.plain().withNulls(0.2),
                RandomBatches.Options.plain().withNulls(0.1).withExtremes(), RandomBatches.Options.plain().withDistinct(7).withZipf()),
                TimestampFunctionsTest::plans);
    }

    private static List<PlanNode> plans(ListSource source) {
        List<PlanNode> plans = new ArrayList<>(projections(source, functions()));
        // A DATE compared with a TIMESTAMP as its midnight, both ways round, and a time of day in a filter.
        plans.add(new FilterNode(scan(source), Call.of(Op.GT, DataType.BOOLEAN, D, T)));
        plans.add(new FilterNode(scan(source), Call.of(Op.LE, DataType.BOOLEAN, SPREAD, D)));
        plans.add(new FilterNode(scan(source), Call.of(Op.LT, DataType.BOOLEAN, Call.of(Op.EXTRACT_HOUR, DataType.BIGINT, SPREAD),
                Literal.ofLong(12, DataType.BIGINT))));
        return plans;
    }
}
