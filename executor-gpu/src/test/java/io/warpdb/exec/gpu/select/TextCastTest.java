package io.warpdb.exec.gpu.select;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Numbers, dates, timestamps, intervals and booleans as text on the GPU ({@link StringCombinations}:
 * CAST(x AS VARCHAR), CONCAT with numbers): the same strings as the CPU executor's, at the
 * harness's sizes (empty, 1, 31/32/33, many blocks) with NULLs, duplicates and, in a second round,
 * each type's limits (BIGINT and TIMESTAMP extremes, 18-digit decimals, -0.xxx decimals, dates
 * from 1696 to 2243, -0.0 apart from 0.0, infinities and NaN). Placement is checked without a device;
 * the results need one.
 */
class TextCastTest extends GpuTestBase {
    private static final DataType FRACTION = DataType.decimal(3, 3);
    private static final Schema SCHEMA = Schema.of(new Field("i", DataType.INTEGER), new Field("b", DataType.BIGINT),
            new Field("s", DataType.SMALLINT), new Field("t", DataType.TINYINT), new Field("m", DataType.decimal(12, 2)),
            new Field("w", DataType.decimal(18, 4)), new Field("f", FRACTION), new Field("d", DataType.DATE),
            new Field("ts", DataType.TIMESTAMP), new Field("iv", DataType.INTERVAL), new Field("k", DataType.BOOLEAN),
            new Field("v", DataType.VARCHAR), new Field("x", DataType.DOUBLE), new Field("r", DataType.REAL));

    private static ColumnRef column(String name) {
        return new ColumnRef(SCHEMA.indexOf(name), SCHEMA.field(SCHEMA.indexOf(name)).type());
    }

    private static Expr text(Expr e) {
        return Call.of(Op.CAST, DataType.VARCHAR, e);
    }

    private static Expr concat(Expr a, Expr b) {
        return Call.of(Op.CONCAT, DataType.VARCHAR, a, b);
    }

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    static List<Expr> expressions() {
        List<Expr> out = new ArrayList<>();
        for (String name : List.of("i", "b", "s", "t", "m", "w", "f", "d", "ts", "iv", "k", "x", "r")) {
            out.add(text(column(name)));
        }
        out.add(concat(column("v"), text(column("b"))));
        out.add(concat(new Literal("#", DataType.VARCHAR), text(column("f"))));
        out.add(concat(text(column("i")), text(column("d"))));
        out.add(concat(new Literal("n=", DataType.VARCHAR), column("b")));
        out.add(concat(column("m"), column("s")));
        out.add(concat(column("v"), column("x")));
        out.add(Call.of(Op.UPPER, DataType.VARCHAR, text(column("k"))));
        // Operands that can raise (22003 on both sides where the extremes overflow), and a CASE of a safe one.
        out.add(text(Call.of(Op.ADD, DataType.INTEGER, column("i"), column("i"))));
        out.add(text(Call.of(Op.SUBTRACT, DataType.decimal(18, 4), column("w"), column("m"))));
        out.add(Call.of(Op.CASE, DataType.VARCHAR, column("k"), text(column("d")), column("v")));
        out.add(text(new Literal(-5L, FRACTION)));
        return out;
    }

    /** Filters that read the text: the combined column under LIKE and a comparison, and IS NULL. */
    static List<Expr> conditions() {
        return List.of(Call.of(Op.LIKE, DataType.BOOLEAN, text(column("m")), new Literal("-%", DataType.VARCHAR)),
                Call.of(Op.EQ, DataType.BOOLEAN, text(column("t")), new Literal("-1", DataType.VARCHAR)),
                Call.of(Op.IS_NULL, DataType.BOOLEAN, concat(column("v"), text(column("d")))));
    }

    private static List<PlanNode> plans(ListSource source) {
        List<PlanNode> plans = new ArrayList<>(projections(source, expressions()));
        conditions().forEach(c -> plans.add(new FilterNode(scan(source), c)));
        // A filter that removes the rows whose sum overflows, fused with the projection: the GPU filters before it combines.
        Expr small = Call.of(Op.AND, DataType.BOOLEAN, Call.of(Op.GT, DataType.BOOLEAN, column("i"), Literal.ofLong(-1_000_001, DataType.INTEGER)),
                Call.of(Op.LT, DataType.BOOLEAN, column("i"), Literal.ofLong(1_000_001, DataType.INTEGER)));
        Expr doubled = text(Call.of(Op.ADD, DataType.INTEGER, column("i"), column("i")));
        plans.add(new ProjectNode(new FilterNode(scan(source), small), List.of(doubled, column("v")),
                Schema.of(new Field("doubled", DataType.VARCHAR), new Field("v", DataType.VARCHAR))));
        return plans;
    }

    @Test
    void theGpuTakesNumbersAsText() {
        try (ListSource source = randomSource(new RandomBatches(5), SCHEMA, 40, Options.plain().withNulls(0.2))) {
            plans(source).forEach(GpuTestBase::assertAcceptedByGpu);
        }
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void textMatchesTheCpu(int rows) {
        assertPlansSameOnGpu(SCHEMA, rows, rows * 23L + 11, List.of(Options.plain().withNulls(0.2),
                Options.plain().withNulls(0.1).withExtremes(), Options.plain().withDistinct(5).withZipf()), TextCastTest::plans);
    }
}
