package io.warpdb.exec.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.Support;
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
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which nodes over which types the GPU takes, whatever the machine (no device needed): TIMESTAMP,
 * INTERVAL, SMALLINT, TINYINT and REAL columns go through in their physical form (compared,
 * grouped, sorted, joined), TIMESTAMPs through their functions too (EXTRACT, DATE_TRUNC, month and
 * microsecond arithmetic, CASTs from and to DATE), SMALLINT, TINYINT and REAL through arithmetic and
 * CASTs (range-checked, rounded to float32); what would compute with them beyond that stays on the
 * CPU; DECIMALs of more than 18 digits are filtered and projected (compared, cast, computed
 * exactly) but grouped, sorted and joined on the CPU.
 */
class GpuTypeSupportTest {
    private static PlanNode rowsOf(DataType type) {
        return new ValuesNode(new Schema(List.of(new Field("c", type))), List.of());
    }

    /** Whether the GPU takes a filter by {@code condition} over a column of {@code type}. */
    private static Support filterSupport(DataType type, Expr condition) {
        return GpuExecutorProvider.planSupport(new FilterNode(rowsOf(type), condition));
    }

    /** Whether the GPU takes a projection of {@code exprs} over a column of {@code type}. */
    private static Support projectSupport(DataType type, Expr... exprs) {
        List<Field> fields = new java.util.ArrayList<>();
        for (int i = 0; i < exprs.length; i++) {
            fields.add(new Field("e" + i, exprs[i].type()));
        }
        return GpuExecutorProvider.planSupport(new ProjectNode(rowsOf(type), List.of(exprs), new Schema(fields)));
    }

    @Test
    void timestampColumnsAreComparedWithTimestampsOnTheGpu() {
        ColumnRef ts = new ColumnRef(0, DataType.TIMESTAMP);
        Support isNotNull = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.TIMESTAMP),
                Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, ts)));
        assertTrue(isNotNull.supported(), isNotNull.toString());
        Support later = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.TIMESTAMP),
                Call.of(Op.GT, DataType.BOOLEAN, ts, Literal.ofLong(1_700_000_000_000_000L, DataType.TIMESTAMP))));
        assertTrue(later.supported(), later.toString());
        Support choice = projectSupport(DataType.TIMESTAMP, Call.of(Op.COALESCE, DataType.TIMESTAMP, ts, Literal.ofLong(0, DataType.TIMESTAMP)));
        assertTrue(choice.supported(), choice.toString());
    }

    @Test
    void timestampFunctionsAndDatesMixedWithTimestampsRunOnTheGpu() {
        ColumnRef ts = new ColumnRef(0, DataType.TIMESTAMP);
        Support withDate = filterSupport(DataType.TIMESTAMP, Call.of(Op.GT, DataType.BOOLEAN, ts, Literal.ofLong(19_000, DataType.DATE)));
        assertTrue(withDate.supported(), withDate.toString());
        Support extract = projectSupport(DataType.TIMESTAMP, Call.of(Op.EXTRACT_YEAR, DataType.BIGINT, ts),
                Call.of(Op.EXTRACT_EPOCH, DataType.BIGINT, ts), Call.of(Op.DATE_TRUNC, DataType.TIMESTAMP, Literal.ofString("week"), ts));
        assertTrue(extract.supported(), extract.toString());
        Call midnight = Call.of(Op.CAST, DataType.TIMESTAMP, new ColumnRef(0, DataType.DATE));
        Support cast = filterSupport(DataType.DATE, Call.of(Op.GT, DataType.BOOLEAN, midnight, Literal.ofLong(0, DataType.TIMESTAMP)));
        assertTrue(cast.supported(), cast.toString());
        Support dates = filterSupport(DataType.DATE, Call.of(Op.GT, DataType.BOOLEAN, new ColumnRef(0, DataType.DATE), Literal.ofLong(0, DataType.DATE)));
        assertTrue(dates.supported(), dates.toString());
    }

    @Test
    void timestampsComputedBeyondTheirFunctionsRunOnTheCpu() {
        ColumnRef ts = new ColumnRef(0, DataType.TIMESTAMP);
        Support raw = projectSupport(DataType.TIMESTAMP, Call.of(Op.ADD, DataType.TIMESTAMP, ts, Literal.ofLong(1, DataType.BIGINT)));
        assertFalse(raw.supported(), raw.toString());
    }

    @Test
    void narrowIntegersAndRealsAreComputedAndCastOnTheGpuButNotInMathFunctions() {
        for (DataType type : List.of(DataType.SMALLINT, DataType.TINYINT, DataType.REAL)) {
            assertEquals(Support.YES, GpuExecutorProvider.planSupport(rowsOf(type)), type.toString());
        }
        Support widened = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.SMALLINT),
                Call.of(Op.GT, DataType.BOOLEAN, Call.of(Op.ADD, DataType.INTEGER, new ColumnRef(0, DataType.SMALLINT),
                        Literal.ofLong(1, DataType.INTEGER)), Literal.ofLong(5, DataType.INTEGER))));
        assertTrue(widened.supported(), widened.toString());
        Support narrowed = projectSupport(DataType.INTEGER, Call.of(Op.CAST, DataType.SMALLINT, new ColumnRef(0, DataType.INTEGER)),
                Call.of(Op.ADD, DataType.TINYINT, Call.of(Op.CAST, DataType.TINYINT, new ColumnRef(0, DataType.INTEGER)),
                        Literal.ofLong(1, DataType.TINYINT)));
        assertTrue(narrowed.supported(), narrowed.toString());
        Support real = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.DOUBLE),
                Call.of(Op.GT, DataType.BOOLEAN, Call.of(Op.MULTIPLY, DataType.REAL, Call.of(Op.CAST, DataType.REAL,
                        new ColumnRef(0, DataType.DOUBLE)), new Literal(2.0, DataType.REAL)), new Literal(0.0, DataType.REAL))));
        assertTrue(real.supported(), real.toString());
        Support roundedReal = projectSupport(DataType.REAL, Call.of(Op.ROUND, DataType.REAL, new ColumnRef(0, DataType.REAL),
                Literal.ofLong(2, DataType.INTEGER)));
        assertFalse(roundedReal.supported(), roundedReal.toString());
    }

    /**
     * Numbers, dates, timestamps and intervals as unbounded text (CAST, CONCAT's implicit text) run on
     * the GPU, per distinct value with the CPU's formatting, constants too; a bounded VARCHAR
     * (whose length check can fail) and an operand that can raise where SQL evaluates it lazily (it is computed
     * for every row first) stay on the CPU.
     */
    @Test
    void numbersDatesAndTimestampsAsTextRunOnTheGpu() {
        for (DataType type : List.of(DataType.INTEGER, DataType.BIGINT, DataType.SMALLINT, DataType.TINYINT, DataType.decimal(18, 4),
                DataType.DATE, DataType.TIMESTAMP, DataType.INTERVAL, DataType.BOOLEAN, DataType.DOUBLE, DataType.REAL)) {
            ColumnRef c = new ColumnRef(0, type);
            Support text = projectSupport(type, Call.of(Op.CAST, DataType.VARCHAR, c),
                    Call.of(Op.CONCAT, DataType.VARCHAR, new Literal("#", DataType.VARCHAR), c));
            assertTrue(text.supported(), type + ": " + text);
        }
        ColumnRef i = new ColumnRef(0, DataType.INTEGER);
        Support bounded = projectSupport(DataType.INTEGER, Call.of(Op.CAST, DataType.varchar(3), i));
        assertFalse(bounded.supported(), bounded.toString());
        Call raising = Call.of(Op.CAST, DataType.VARCHAR, Call.of(Op.ADD, DataType.INTEGER, i, Literal.ofLong(1, DataType.INTEGER)));
        Support everyRow = projectSupport(DataType.INTEGER, raising, Call.of(Op.CAST, DataType.VARCHAR, Literal.ofLong(-5, DataType.decimal(3, 2))));
        assertTrue(everyRow.supported(), everyRow.toString());
        Support lazy = projectSupport(DataType.INTEGER, Call.of(Op.CASE, DataType.VARCHAR,
                Call.of(Op.GT, DataType.BOOLEAN, i, Literal.ofLong(0, DataType.INTEGER)), raising));
        assertFalse(lazy.supported(), lazy.toString());
        Support lazyButSafe = projectSupport(DataType.INTEGER, Call.of(Op.CASE, DataType.VARCHAR,
                Call.of(Op.GT, DataType.BOOLEAN, i, Literal.ofLong(0, DataType.INTEGER)), Call.of(Op.CAST, DataType.VARCHAR, i)));
        assertTrue(lazyButSafe.supported(), lazyButSafe.toString());
    }

    /** SUM and AVG of SMALLINT, TINYINT and REAL, typed BIGINT and DOUBLE as the sql layer types them, run on the GPU. */
    @Test
    void sumsAndAveragesOfNarrowTypesRunOnTheGpu() {
        for (DataType type : List.of(DataType.SMALLINT, DataType.TINYINT, DataType.REAL)) {
            DataType sum = type.isReal() ? DataType.DOUBLE : DataType.BIGINT;
            List<AggCall> calls = List.of(new AggCall(AggFunction.SUM, List.of(0), false, sum, "s"),
                    new AggCall(AggFunction.AVG, List.of(0), false, DataType.DOUBLE, "a"));
            AggregateNode node = new AggregateNode(rowsOf(type), List.of(0), calls,
                    Schema.of(new Field("c", type), new Field("s", sum), new Field("a", DataType.DOUBLE)));
            assertEquals(Support.YES, GpuExecutorProvider.planSupport(node), type.toString());
        }
    }

    @Test
    void wideDecimalsRunOnTheGpuButAsJoinKeysBesideANarrowOne() {
        DataType wide = DataType.decimal(38, 2);
        ColumnRef w = new ColumnRef(0, wide);
        assertEquals(Support.YES, GpuExecutorProvider.planSupport(rowsOf(wide)));
        Support widened = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.decimal(18, 2)),
                Call.of(Op.GT, DataType.BOOLEAN, new ColumnRef(0, DataType.decimal(18, 2)),
                        new Literal(java.math.BigInteger.TEN.pow(30), wide))));
        assertTrue(widened.supported(), widened.toString());
        Support computed = projectSupport(wide, Call.of(Op.MULTIPLY, wide, w, Literal.ofLong(3, DataType.INTEGER)),
                Call.of(Op.CAST, DataType.DOUBLE, w), Call.of(Op.CAST, DataType.decimal(18, 2), w), Call.of(Op.NEGATE, wide, w),
                Call.of(Op.ABS, wide, w));
        assertTrue(computed.supported(), computed.toString());
        Support rounded = projectSupport(wide, Call.of(Op.ROUND, wide, w));
        assertEquals(Support.no("ROUND of [DECIMAL(38,2)] as DECIMAL(38,2) runs on the CPU"), rounded);
        Support fromDouble = projectSupport(DataType.DOUBLE, Call.of(Op.CAST, wide, new ColumnRef(0, DataType.DOUBLE)));
        assertEquals(Support.no("CAST from DOUBLE to DECIMAL(38,2) runs on the CPU"), fromDouble);
        assertEquals(Support.YES, GpuExecutorProvider.planSupport(new SortNode(rowsOf(wide), List.of(new SortKey(0, true, false)), 0, -1)));
        AggregateNode grouped = new AggregateNode(rowsOf(wide), List.of(0), List.of(new AggCall(AggFunction.SUM, List.of(0), false, wide, "s")),
                Schema.of(new Field("c", wide), new Field("s", wide)));
        assertEquals(Support.YES, GpuExecutorProvider.planSupport(grouped));
        JoinNode joined = new JoinNode(rowsOf(wide), rowsOf(wide), JoinKind.INNER, List.of(0), List.of(0), null,
                Schema.of(new Field("l", wide), new Field("r", wide)));
        assertEquals(Support.yes("hash join"), GpuExecutorProvider.planSupport(joined));
        DataType narrow = DataType.decimal(18, 2);
        JoinNode mixed = new JoinNode(rowsOf(wide), rowsOf(narrow), JoinKind.INNER, List.of(0), List.of(0), null,
                Schema.of(new Field("l", wide), new Field("r", narrow)));
        assertEquals(Support.no("join keys DECIMAL(38,2) = DECIMAL(18,2) (a wide and a narrow DECIMAL) run on the CPU until the GPU"
                + " join widens keys"), GpuExecutorProvider.planSupport(mixed));
    }
}
