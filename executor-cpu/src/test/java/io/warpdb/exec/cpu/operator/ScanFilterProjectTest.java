package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScanFilterProjectTest extends ExecTestBase {
    private final TestTable items = TestTable.of("items", "id", INT, "name", VARCHAR, "price", dec(15, 2), "day", DATE, "ok", BOOL)
            .batch(row(1, "bolt", bd("0.10"), date("1995-01-01"), true), row(2, "nut", bd("0.05"), date("1995-06-30"), false))
            .batch()
            .batch(row(3, null, bd("12.00"), null, null))
            .batch(row(4, "bolt", null, date("1996-01-01"), true), row(5, "gear", bd("7.25"), date("1994-12-31"), true),
                    row(6, "nut", bd("0.05"), date("1995-03-01"), false));

    @Test
    void scanReadsSelectedColumnsOfEveryBatchAndSkipsEmptyOnes() {
        ScanNode scan = ScanNode.of(items, List.of(2, 0));
        assertEquals(List.of(row(bd("0.10"), 1), row(bd("0.05"), 2), row(bd("12.00"), 3), row(null, 4), row(bd("7.25"), 5),
                row(bd("0.05"), 6)), run(scan));
        assertEquals(List.of(2, 1, 3), batchSizes);
    }

    @Test
    void filterKeepsOnlyTrueRows() {
        // ok is NULL for id 3: not kept, and neither by NOT ok.
        assertEquals(List.of(row(1), row(4), row(5)), ids(new FilterNode(scan(items), col(4, BOOL))));
        // Conditions on one string column, looked up per dictionary entry; the NULL name (id 3) passes only IS NULL.
        assertEquals(List.of(row(2), row(6)), ids(new FilterNode(scan(items), call(Op.IN, BOOL, col(1, VARCHAR), str("nut"), str("x")))));
        assertEquals(List.of(row(3)), ids(new FilterNode(scan(items), call(Op.IS_NULL, BOOL, col(1, VARCHAR)))));
        assertEquals(List.of(row(5)), ids(new FilterNode(scan(items), call(Op.AND, BOOL,
                call(Op.NOT, BOOL, call(Op.LIKE, BOOL, col(1, VARCHAR), str("%t%"))), call(Op.GT, BOOL, col(0, INT), lit(3))))));
        assertEquals(List.of(row(2), row(6)), ids(new FilterNode(scan(items), call(Op.NOT, BOOL, col(4, BOOL)))));
        Expr cheapBolt = call(Op.AND, BOOL, call(Op.EQ, BOOL, col(1, VARCHAR), str("bolt")),
                call(Op.LT, BOOL, col(2, dec(15, 2)), dec("1")));
        assertEquals(List.of(row(1)), ids(new FilterNode(scan(items), cheapBolt)));
        Expr in1995 = call(Op.AND, BOOL, call(Op.GE, BOOL, col(3, DATE), dateLit("1995-01-01")),
                call(Op.LT, BOOL, col(3, DATE), dateLit("1996-01-01")));
        assertEquals(List.of(row(1), row(2), row(6)), ids(new FilterNode(scan(items), in1995)));
        assertEquals(List.of(), ids(new FilterNode(scan(items), bool(false))));
    }

    /**
     * Comparisons tested on the Arrow buffers give what the evaluators give (the same condition
     * under OR FALSE, which only they take): constants of other scales rounded the right way,
     * ranges merged per column, column pairs of two widths, NULL columns and NULL constants.
     */
    @Test
    void comparisonsOnBuffersAgreeWithTheEvaluators() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(row(i % 17 == 0 ? null : (long) i - 150, i % 11 == 0 ? null : BigDecimal.valueOf(i * 7 % 1000 - 500, 2),
                    i % 13 == 0 ? null : i % 40 - 20));
        }
        TestTable numbers = TestTable.of("numbers", "b", BIGINT, "d", dec(12, 2), "n", INT).batches(rows, 100, 0, 130, 70);
        DataType decimal = dec(12, 2);
        List<Expr> conditions = List.of(
                call(Op.LT, BOOL, col(1, decimal), dec("2.505")),
                call(Op.GE, BOOL, col(1, decimal), dec("-1.001")),
                call(Op.GT, BOOL, col(1, decimal), dec("0.999")),
                call(Op.LE, BOOL, col(1, decimal), dec("-2.5")),
                call(Op.EQ, BOOL, col(1, decimal), dec("1.005")),
                call(Op.EQ, BOOL, col(1, decimal), dec("2.000")),
                call(Op.GT, BOOL, lit(3), col(2, INT)),
                call(Op.AND, BOOL, call(Op.GE, BOOL, col(0, BIGINT), lit(-20)), call(Op.LT, BOOL, col(0, BIGINT), bigint(40))),
                call(Op.AND, BOOL, call(Op.GE, BOOL, col(0, BIGINT), lit(40)), call(Op.LT, BOOL, col(0, BIGINT), bigint(-20))),
                call(Op.LT, BOOL, col(0, BIGINT), col(2, INT)),
                call(Op.NE, BOOL, col(2, INT), col(0, BIGINT)),
                call(Op.GE, BOOL, col(0, BIGINT), nul(BIGINT)),
                call(Op.AND, BOOL, call(Op.LE, BOOL, col(2, INT), lit(5)), call(Op.EQ, BOOL, col(1, decimal), col(1, decimal))));
        for (Expr condition : conditions) {
            Expr onEvaluators = call(Op.OR, BOOL, condition, bool(false));
            List<List<Object>> expected = run(new FilterNode(scan(numbers), onEvaluators));
            assertEquals(expected, run(new FilterNode(scan(numbers), condition)), condition.toString());
        }
        // Two by hand: d = 1.005 matches nothing at scale 2; d = 2.000 matches row 100's 2.00.
        assertEquals(0, run(new FilterNode(scan(numbers), conditions.get(4))).size());
        assertEquals(List.of(row(-50L, bd("2.00"), 0)), run(new FilterNode(scan(numbers), conditions.get(5))));
    }

    private List<List<Object>> ids(io.warpdb.core.plan.PlanNode plan) {
        return run(project(plan, col(0, INT)));
    }

    @Test
    void projectComputesAndPassesColumnsThrough() {
        Expr total = call(Op.MULTIPLY, dec(18, 2), col(2, dec(15, 2)), col(0, INT));
        List<List<Object>> rows = run(project(scan(items), col(1, VARCHAR), total, col(0, INT), col(1, VARCHAR)));
        assertEquals(List.of(row("bolt", bd("0.10"), 1, "bolt"), row("nut", bd("0.10"), 2, "nut"), row(null, bd("36.00"), 3, null),
                row("bolt", null, 4, "bolt"), row("gear", bd("36.25"), 5, "gear"), row("nut", bd("0.30"), 6, "nut")), rows);
    }

    @Test
    void projectOverFilterOverProjectWithManyRowsInSeveralBatches() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 150_000; i++) {
            rows.add(row(i, i % 7 == 0 ? null : "v" + (i % 100)));
        }
        TestTable big = TestTable.of("big", "i", INT, "s", VARCHAR).batches(rows, 70_000, 0, 1, 79_999);
        Expr even = call(Op.EQ, BOOL, call(Op.MOD, INT, col(0, INT), lit(2)), lit(0));
        Expr label = call(Op.CONCAT, VARCHAR, col(1, VARCHAR), str("!"));
        List<List<Object>> out = new ArrayList<>(run(project(new FilterNode(scan(big), even), col(0, INT), label)));
        // A scan this large runs in parallel, which keeps no row order.
        out.sort(java.util.Comparator.comparing(r -> (Integer) r.get(0)));
        assertEquals(75_000, out.size());
        assertEquals(row(0, null), out.get(0));
        assertEquals(row(2, "v2!"), out.get(1));
        assertEquals(row(149_998, "v98!"), out.get(74_999));
    }

    @Test
    void valuesProducesItsRowsWithDictionaries() {
        Schema schema = new Schema(List.of(new Field("n", INT), new Field("s", VARCHAR), new Field("d", dec(5, 1))));
        ValuesNode values = new ValuesNode(schema, List.of(
                List.of(lit(1), str("a"), dec("1.5")),
                List.of(Literal.ofNull(INT), str("b"), Literal.ofNull(dec(5, 1))),
                List.of(lit(3), str("a"), dec("-0.5"))));
        assertEquals(List.of(row(1, "a", bd("1.5")), row(null, "b", null), row(3, "a", bd("-0.5"))), run(values));
        assertEquals(List.of(row("A"), row("B"), row("A")), run(project(values, call(Op.UPPER, VARCHAR, col(1, VARCHAR)))));
    }

    @Test
    void valuesSplitsLargeInputIntoBatches() {
        List<List<Literal>> rows = new ArrayList<>();
        for (int i = 0; i < 70_000; i++) {
            rows.add(List.of(lit(i)));
        }
        List<List<Object>> out = run(new ValuesNode(new Schema(List.of(new Field("n", INT))), rows));
        assertEquals(70_000, out.size());
        assertEquals(List.of(65_536, 4_464), batchSizes);
    }
}
