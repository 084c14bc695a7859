package io.warpdb.exec.gpu.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.Support;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Placement of window nodes, whatever the machine (no device needed): the GPU takes every
 * function and frame the GPU tests exercise, and refuses, with a reason naming the call, what it
 * does not implement, which then runs on the CPU.
 */
class GpuWindowSupportTest {
    private static final List<DataType> WIDE = List.of(DataType.decimal(38, 2), DataType.decimal(24, 0));

    private static PlanNode rowsOf(DataType partition, DataType order, DataType value) {
        return new ValuesNode(new Schema(List.of(new Field("p", partition), new Field("o", order), new Field("v", value))), List.of());
    }

    private static Support support(DataType order, DataType value, List<SortKey> orderKeys, List<WindowCall> calls) {
        return support(DataType.INTEGER, order, value, orderKeys, calls);
    }

    private static Support support(DataType partition, DataType order, DataType value, List<SortKey> orderKeys,
            List<WindowCall> calls) {
        return GpuExecutorProvider.planSupport(WindowPlans.window(rowsOf(partition, order, value), List.of(0), orderKeys, calls));
    }

    @Test
    void everyFunctionAndFrameOfTheGpuTestsIsPlacedOnTheGpu() {
        List<DataType> values = new ArrayList<>(RandomBatches.allTypes());
        values.addAll(WIDE);
        for (DataType value : values) {
            List<WindowCall> calls = new ArrayList<>(WindowPlans.orderCalls(2, value));
            for (WindowFrame frame : WindowPlans.FRAMES) {
                calls.addAll(WindowPlans.frameCalls(2, value, frame));
            }
            Support s = support(DataType.INTEGER, value, List.of(new SortKey(1, false, false)), calls);
            assertTrue(s.supported(), value + ": " + s);
        }
        for (DataType key : List.of(DataType.INTEGER, DataType.BIGINT, DataType.decimal(12, 2), DataType.DATE)) {
            List<WindowCall> calls = new ArrayList<>();
            for (WindowFrame frame : WindowPlans.RANGE_OFFSET_FRAMES) {
                calls.addAll(WindowPlans.frameCalls(2, DataType.BIGINT, frame));
            }
            Support s = support(key, DataType.BIGINT, List.of(new SortKey(1, true, false)), calls);
            assertTrue(s.supported(), key + ": " + s);
        }
        for (DataType wide : WIDE) {
            List<WindowCall> calls = new ArrayList<>(WindowPlans.orderCalls(2, DataType.BIGINT));
            calls.addAll(WindowPlans.frameCalls(2, DataType.BIGINT, WindowFrame.RANGE_TO_CURRENT_ROW));
            Support s = support(wide, wide, DataType.BIGINT, List.of(new SortKey(1, true, false)), calls);
            assertTrue(s.supported(), wide + " keys: " + s);
        }
    }

    @Test
    void rangeOffsetsOverSeveralOrListKeysOrDoublesStayOnTheCpu() {
        List<WindowCall> calls = WindowPlans.frameCalls(2, DataType.BIGINT, WindowPlans.RANGE_OFFSET_FRAMES.get(0));
        Support twoKeys = support(DataType.INTEGER, DataType.BIGINT, List.of(new SortKey(1, false, false),
                new SortKey(2, false, false)), calls);
        assertEquals(Support.no("a RANGE frame with an offset needs exactly one ORDER BY key (the CPU reports it)"), twoKeys);
        Support doubles = support(DataType.DOUBLE, DataType.BIGINT, List.of(new SortKey(1, false, false)), calls);
        assertEquals(Support.no("a RANGE frame with an offset over a DOUBLE key runs on the CPU"), doubles);
        Support wide = support(DataType.decimal(38, 2), DataType.BIGINT, List.of(new SortKey(1, false, false)), calls);
        assertEquals(Support.no("a RANGE frame with an offset over a DECIMAL(38,2) key runs on the CPU"), wide);
    }

    @Test
    void callsTheGpuDoesNotImplementAreRefusedWithTheirReason() {
        List<SortKey> order = List.of(new SortKey(1, false, false));
        ColumnRef v = new ColumnRef(2, DataType.INTEGER);
        WindowCall castDefault = WindowPlans.call(WindowFunction.LAG, List.of(v, Literal.ofLong(1, DataType.INTEGER),
                new Literal(0.5, DataType.DOUBLE)), WindowFrame.RANGE_TO_CURRENT_ROW, DataType.INTEGER);
        Support s = support(DataType.INTEGER, DataType.INTEGER, order, List.of(castDefault));
        assertEquals(Support.no(castDefault + " typed INTEGER runs on the CPU: its default needs a cast"), s);
        WindowCall widened = WindowPlans.call(WindowFunction.LEAD, List.of(new ColumnRef(2, DataType.decimal(12, 2)),
                Literal.ofLong(1, DataType.INTEGER), Literal.ofLong(0, DataType.INTEGER)), WindowFrame.RANGE_TO_CURRENT_ROW,
                DataType.decimal(12, 2));
        assertTrue(support(DataType.INTEGER, DataType.decimal(12, 2), order, List.of(widened)).supported());
        WindowCall constant = WindowPlans.call(WindowFunction.FIRST_VALUE, List.of(Literal.ofLong(1, DataType.INTEGER)),
                WindowFrame.WHOLE_PARTITION, DataType.INTEGER);
        assertFalse(support(DataType.INTEGER, DataType.INTEGER, order, List.of(constant)).supported());
        WindowCall doubleSum = WindowPlans.call(WindowFunction.SUM, List.of(v), WindowFrame.WHOLE_PARTITION, DataType.DOUBLE);
        assertFalse(support(DataType.INTEGER, DataType.INTEGER, order, List.of(doubleSum)).supported());
        WindowCall timestamps = WindowPlans.call(WindowFunction.MAX, List.of(new ColumnRef(2, DataType.TIMESTAMP)),
                WindowFrame.WHOLE_PARTITION, DataType.TIMESTAMP);
        assertTrue(support(DataType.INTEGER, DataType.TIMESTAMP, order, List.of(timestamps)).supported());
        WindowCall narrowSum = WindowPlans.call(WindowFunction.SUM, List.of(new ColumnRef(2, DataType.SMALLINT)),
                WindowFrame.WHOLE_PARTITION, DataType.SMALLINT);
        assertFalse(support(DataType.INTEGER, DataType.SMALLINT, order, List.of(narrowSum)).supported());
        DataType wide = DataType.decimal(38, 2);
        WindowCall wideAverage = WindowPlans.call(WindowFunction.AVG, List.of(new ColumnRef(2, wide)), WindowFrame.WHOLE_PARTITION,
                wide);
        assertEquals(Support.no(wideAverage + " typed DECIMAL(38,2) runs on the CPU: an average as DECIMAL(38,2) is not implemented"
                + " on the GPU"), support(DataType.INTEGER, wide, order, List.of(wideAverage)));
        WindowCall narrowedLag = WindowPlans.call(WindowFunction.LAG, List.of(new ColumnRef(2, DataType.decimal(12, 2))),
                WindowFrame.RANGE_TO_CURRENT_ROW, wide);
        assertEquals(Support.no(narrowedLag + " typed DECIMAL(38,2) runs on the CPU: its argument needs a cast"),
                support(DataType.INTEGER, DataType.decimal(12, 2), order, List.of(narrowedLag)));
    }
}
