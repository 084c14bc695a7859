package io.warpdb.exec.cpu;

import io.warpdb.core.batch.Batches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Runs plans on the CPU executor with a fresh allocator per test and checks afterwards that
 * every buffer was released; helpers build expressions and collect result rows as Java values.
 */
public abstract class ExecTestBase {
    protected static final DataType BOOL = DataType.BOOLEAN;
    protected static final DataType INT = DataType.INTEGER;
    protected static final DataType BIGINT = DataType.BIGINT;
    protected static final DataType DOUBLE = DataType.DOUBLE;
    protected static final DataType DATE = DataType.DATE;
    protected static final DataType VARCHAR = DataType.VARCHAR;

    protected BufferAllocator allocator;
    /** Row counts of the batches the last {@link #run} received. */
    protected List<Integer> batchSizes;

    @BeforeEach
    void openAllocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void checkNothingLeaked() {
        assertEquals(0, allocator.getAllocatedMemory(), "memory still allocated after the query");
        allocator.close();
    }

    /** Runs the plan to its end and returns its rows. */
    protected List<List<Object>> run(PlanNode plan) {
        return run(plan, new ExecContext(allocator));
    }

    /** Runs the plan to its end in the given context and returns its rows. */
    protected List<List<Object>> run(PlanNode plan, ExecContext context) {
        List<List<Object>> rows = new ArrayList<>();
        batchSizes = new ArrayList<>();
        try (BatchStream stream = new CpuExecutorProvider().execute(plan, context)) {
            Batch batch;
            while ((batch = stream.next()) != null) {
                try (Batch b = batch) {
                    assertEquals(plan.schema().size(), b.columnCount());
                    assertTrue(b.rowCount() <= 64 * 1024, "batch of " + b.rowCount() + " rows");
                    batchSizes.add(b.rowCount());
                    Batches.addRows(b, rows);
                }
            }
        }
        return rows;
    }

    /** Runs a plan that must fail and returns its error, checking the SQLSTATE. */
    protected WarpException runFailing(PlanNode plan, SqlState expected) {
        WarpException e = assertThrows(WarpException.class, () -> run(plan));
        assertEquals(expected, e.state(), e.getMessage());
        return e;
    }

    protected static ScanNode scan(TestTable table) {
        return ScanNode.of(table, IntStream.range(0, table.schema().size()).boxed().toList());
    }

    /** A projection of the expressions over the input, output columns named c0, c1, ... */
    protected static ProjectNode project(PlanNode input, Expr... exprs) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < exprs.length; i++) {
            fields.add(new Field("c" + i, exprs[i].type()));
        }
        return new ProjectNode(input, List.of(exprs), new Schema(fields));
    }

    /** The value of {@code e} for each row of the table. */
    protected List<Object> eval(TestTable table, Expr e) {
        return run(project(scan(table), e)).stream().map(r -> r.get(0)).toList();
    }

    /** The value of a constant expression. */
    protected Object evalConstant(Expr e) {
        return eval(TestTable.of("one", "x", INT).batch(row(1)), e).get(0);
    }

    protected WarpException evalFailing(TestTable table, Expr e, SqlState expected) {
        return runFailing(project(scan(table), e), expected);
    }

    protected WarpException evalConstantFailing(Expr e, SqlState expected) {
        return evalFailing(TestTable.of("one", "x", INT).batch(row(1)), e, expected);
    }

    public static List<Object> row(Object... values) {
        // row(null) passes a null array rather than one null value.
        return values == null ? Collections.singletonList(null) : Arrays.asList(values);
    }

    protected static ColumnRef col(int index, DataType type) {
        return new ColumnRef(index, type);
    }

    protected static Call call(Op op, DataType type, Expr... args) {
        return new Call(op, List.of(args), type);
    }

    protected static Literal lit(long value) {
        return new Literal(value, INT);
    }

    protected static Literal bigint(long value) {
        return new Literal(value, BIGINT);
    }

    protected static Literal dbl(double value) {
        return new Literal(value, DOUBLE);
    }

    protected static Literal str(String value) {
        return Literal.ofString(value);
    }

    protected static Literal bool(boolean value) {
        return Literal.ofBoolean(value);
    }

    protected static Literal nul(DataType type) {
        return Literal.ofNull(type);
    }

    protected static Literal dateLit(String iso) {
        return new Literal(LocalDate.parse(iso).toEpochDay(), DATE);
    }

    /** A DECIMAL literal of the text's own scale, precision 18. */
    protected static Literal dec(String text) {
        BigDecimal d = new BigDecimal(text);
        return new Literal(d.unscaledValue().longValueExact(), dec(18, d.scale()));
    }

    protected static DataType dec(int precision, int scale) {
        return DataType.decimal(precision, scale);
    }

    protected static BigDecimal bd(String text) {
        return new BigDecimal(text);
    }

    protected static java.sql.Date date(String iso) {
        return java.sql.Date.valueOf(iso);
    }
}
