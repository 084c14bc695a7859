package io.warpdb.exec.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.Support;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Placement keeps nodes with types the GPU does not handle on the CPU, whatever the machine (no device needed). */
class GpuTypeSupportTest {
    private static PlanNode rowsOf(DataType type) {
        return new ValuesNode(new Schema(List.of(new Field("c", type))), List.of());
    }

    @Test
    void nodesOverTimestampColumnsRunOnTheCpu() {
        Support filter = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.TIMESTAMP),
                Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, new ColumnRef(0, DataType.TIMESTAMP))));
        assertEquals(Support.no("TIMESTAMP columns run on the CPU"), filter);
    }

    @Test
    void nodesOverNarrowIntegersAndRealsRunOnTheCpu() {
        assertEquals(Support.no("SMALLINT columns run on the CPU"), GpuExecutorProvider.planSupport(rowsOf(DataType.SMALLINT)));
        assertEquals(Support.no("TINYINT columns run on the CPU"), GpuExecutorProvider.planSupport(rowsOf(DataType.TINYINT)));
        Support real = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.DOUBLE),
                Call.of(Op.GT, DataType.BOOLEAN, Call.of(Op.CAST, DataType.REAL, new ColumnRef(0, DataType.DOUBLE)),
                        new Literal(0.0, DataType.REAL))));
        assertEquals(Support.no("REAL values run on the CPU"), real);
    }

    @Test
    void expressionsWithTimestampValuesRunOnTheCpu() {
        Call midnight = Call.of(Op.CAST, DataType.TIMESTAMP, new ColumnRef(0, DataType.DATE));
        Support cast = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.DATE),
                Call.of(Op.GT, DataType.BOOLEAN, midnight, Literal.ofLong(0, DataType.TIMESTAMP))));
        assertEquals(Support.no("TIMESTAMP values run on the CPU"), cast);
        Support dates = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.DATE),
                Call.of(Op.GT, DataType.BOOLEAN, new ColumnRef(0, DataType.DATE), Literal.ofLong(0, DataType.DATE))));
        assertTrue(dates.supported(), dates.toString());
    }

    @Test
    void wideDecimalsRunOnTheCpuAndEighteenDigitsOnTheGpu() {
        DataType wide = DataType.decimal(38, 2);
        assertEquals(Support.no("DECIMAL(38,2) columns run on the CPU"), GpuExecutorProvider.planSupport(rowsOf(wide)));
        Support widened = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.decimal(18, 2)),
                Call.of(Op.GT, DataType.BOOLEAN, new ColumnRef(0, DataType.decimal(18, 2)),
                        new Literal(java.math.BigInteger.TEN.pow(30), wide))));
        assertEquals(Support.no("DECIMAL(38,2) values run on the CPU"), widened);
        Support narrow = GpuExecutorProvider.planSupport(new FilterNode(rowsOf(DataType.decimal(18, 2)),
                Call.of(Op.GT, DataType.BOOLEAN, new ColumnRef(0, DataType.decimal(18, 2)), Literal.ofLong(0, DataType.decimal(18, 2)))));
        assertTrue(narrow.supported(), narrow.toString());
    }
}
