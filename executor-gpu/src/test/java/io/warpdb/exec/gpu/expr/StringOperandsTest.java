package io.warpdb.exec.gpu.expr;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * String operands on the GPU against the CPU executor: CASE and COALESCE that yield strings (the
 * operands' dictionaries unified on the host, codes chosen on the device), comparisons of two
 * string operands (ranks in their values together), CONCAT, REPLACE, STRPOS, STARTS_WITH, LEFT and
 * SPLIT_PART of several columns (once per distinct combination of values, TPC-DS q84), and calls over string constants only (TPC-DS's
 * {@code CAST('2000-02-01' AS DATE)}, evaluated as a one-entry dictionary), in projections, filters
 * and under an aggregation grouping by a string CASE, at the harness's sizes, with NULLs, duplicates
 * and dictionaries that differ between batches. Placement is checked without a device.
 */
class StringOperandsTest extends GpuTestBase {
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final Schema SCHEMA = Schema.of(new Field("s", DataType.VARCHAR), new Field("t", DataType.VARCHAR),
            new Field("n", DataType.BIGINT), new Field("b", DataType.BOOLEAN), new Field("dt", DataType.DATE),
            new Field("m", MONEY), new Field("i", DataType.INTEGER));
    private static final ColumnRef S = new ColumnRef(0, DataType.VARCHAR);
    private static final ColumnRef T = new ColumnRef(1, DataType.VARCHAR);
    private static final ColumnRef N = new ColumnRef(2, DataType.BIGINT);
    private static final ColumnRef B = new ColumnRef(3, DataType.BOOLEAN);
    private static final ColumnRef DT = new ColumnRef(4, DataType.DATE);
    private static final ColumnRef I = new ColumnRef(6, DataType.INTEGER);
    private static final DataType DATE_CONSTANT_TYPE = DataType.chars(10).withNullable(false);

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    /** String-valued CASE and COALESCE, each choosing among columns, constants, NULL and per-entry results. */
    static List<Expr> stringChoices() {
        Expr positive = Call.of(Op.GT, DataType.BOOLEAN, N, Literal.ofLong(0, DataType.BIGINT));
        return List.of(
                caseWhen(positive, S, B, T, Literal.ofString("neither")),
                caseWhen(positive, S, Literal.ofNull(DataType.VARCHAR)),
                caseWhen(B, Literal.ofString("yes"), Literal.ofString("no")),
                caseWhen(positive, Call.of(Op.UPPER, DataType.VARCHAR, S),
                        Call.of(Op.SUBSTRING, DataType.VARCHAR, T, Literal.ofLong(1, DataType.BIGINT), Literal.ofLong(2, DataType.BIGINT))),
                caseWhen(positive, S, S),
                coalesce(S, T, Literal.ofString("none")),
                coalesce(S, Literal.ofString("")),
                coalesce(S, T),
                coalesce(caseWhen(B, S, Literal.ofNull(DataType.VARCHAR)), T),
                caseWhen(B, coalesce(S, T), Literal.ofString("b is not true")));
    }

    /** Comparisons of two string operands, each with its own dictionary. */
    static List<Expr> stringComparisons() {
        List<Expr> out = new ArrayList<>();
        for (Op op : List.of(Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE, Op.IS_DISTINCT_FROM, Op.IS_NOT_DISTINCT_FROM)) {
            out.add(Call.of(op, DataType.BOOLEAN, S, T));
        }
        out.add(Call.of(Op.NE, DataType.BOOLEAN, Call.of(Op.UPPER, DataType.VARCHAR, S), T));
        out.add(Call.of(Op.EQ, DataType.BOOLEAN, substringOf(S), substringOf(T)));
        out.add(Call.of(Op.LT, DataType.BOOLEAN, S, S));
        out.add(Call.of(Op.EQ, DataType.BOOLEAN, coalesce(S, Literal.ofString("a")), T));
        return out;
    }

    /**
     * String functions of several columns (strings, INTEGERs): evaluated once per distinct combination
     * of their values (select/StringCombinations), with string, INTEGER and BOOLEAN results.
     */
    static List<Expr> combinations() {
        Expr q84 = concat(concat(coalesce(S, Literal.ofString("")), Literal.ofString(", ")), coalesce(T, Literal.ofString("")));
        return List.of(concat(S, T), q84, concat(S, Literal.ofString("-"), Call.of(Op.UPPER, DataType.VARCHAR, T)),
                caseWhen(B, concat(S, T), S), concat(S, S), concat(Call.of(Op.CAST, DataType.varchar(30), S), T),
                concat(S, I), Call.of(Op.REPLACE, DataType.VARCHAR, S, T, Literal.ofString("_")),
                Call.of(Op.STRPOS, DataType.INTEGER, S, T), Call.of(Op.STARTS_WITH, DataType.BOOLEAN, S, T),
                Call.of(Op.LEFT, DataType.VARCHAR, S, I), Call.of(Op.SPLIT_PART, DataType.VARCHAR, S, T, Literal.ofLong(2, DataType.INTEGER)));
    }

    /** Calls whose string arguments are all constants. */
    static List<Expr> constantCalls() {
        Expr date = Call.of(Op.CAST, DataType.DATE.withNullable(false), new Literal("2000-02-01", DATE_CONSTANT_TYPE));
        return List.of(date,
                Call.of(Op.DATE_ADD_DAYS, DataType.DATE, date, Literal.ofLong(30, DataType.INTEGER)),
                Call.of(Op.CONCAT, DataType.VARCHAR, Literal.ofString("catalog_page"), Literal.ofString("_x")),
                Call.of(Op.CONCAT, DataType.VARCHAR, Literal.ofString("store"), S),
                Call.of(Op.CAST, DataType.INTEGER, Literal.ofString("12")));
    }

    @Test
    void theGpuAcceptsStringOperandsAndTheCpuRunsThem() {
        try (ListSource source = randomSource(new RandomBatches(1), SCHEMA, 3, RandomBatches.Options.plain())) {
            for (PlanNode plan : plans(source)) {
                assertAcceptedByGpu(plan);
                cpuRows(plan); // the CPU twin runs the plan (no device needed)
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void stringOperandsMatchTheCpu(int rows) {
        GpuTests.assumeGpu();
        RandomBatches random = new RandomBatches(rows * 17L + 5);
        RandomBatches.Options options = RandomBatches.Options.plain().withNulls(0.2).withDistinct(12).withVaryingDictionaries();
        try (ListSource source = randomSource(random, SCHEMA, rows, options)) {
            String context = "seed " + random.seed() + ", " + rows + " rows";
            for (PlanNode plan : plans(source)) {
                assertSameOnGpu(plan, false, context + ": " + plan.describe());
            }
        }
    }

    /** A bad string constant fails only where a row evaluates it, as on the CPU. */
    @ParameterizedTest
    @MethodSource("sizes")
    void aFailingConstantCastFailsOnlyWhereEvaluated(int rows) {
        GpuTests.assumeGpu();
        try (ListSource source = randomSource(new RandomBatches(rows + 11L), SCHEMA, rows, RandomBatches.Options.plain().withNulls(0.3))) {
            Expr bad = Call.of(Op.CAST, DataType.INTEGER, Literal.ofString("12x"));
            Expr neverTaken = Call.of(Op.CASE, DataType.INTEGER, Call.of(Op.IS_NULL, DataType.BOOLEAN, N), bad,
                    Literal.ofLong(0, DataType.INTEGER));
            for (Expr e : List.of(neverTaken, Call.of(Op.CASE, DataType.INTEGER, B, bad, Literal.ofLong(0, DataType.INTEGER)))) {
                ProjectNode plan = new ProjectNode(scan(source), List.of(e), schemaOf(List.of(e)));
                assertAcceptedByGpu(plan);
                assertSameOnGpu(plan, false, rows + " rows: " + e);
            }
        }
    }

    private static List<PlanNode> plans(ListSource source) {
        List<PlanNode> plans = new ArrayList<>();
        List<Expr> all = new ArrayList<>(stringChoices());
        all.addAll(stringComparisons());
        all.addAll(constantCalls());
        all.addAll(combinations());
        plans.add(new ProjectNode(scan(source), all, schemaOf(all)));
        for (Expr combination : combinations()) {
            DataType type = combination.type();
            Expr condition = type.kind().isString() ? Call.of(Op.LIKE, DataType.BOOLEAN, combination, Literal.ofString("%a%b%"))
                    : type.kind() == TypeKind.BOOLEAN ? combination
                    : Call.of(Op.GT, DataType.BOOLEAN, combination, Literal.ofLong(1, DataType.INTEGER));
            plans.add(new FilterNode(scan(source), condition));
            plans.add(groupedBy(new ProjectNode(scan(source), List.of(combination, N), schemaOf(List.of(combination, N)))));
        }
        for (Expr comparison : stringComparisons()) {
            plans.add(new FilterNode(scan(source), comparison));
        }
        Expr date = constantCalls().get(0);
        plans.add(new FilterNode(scan(source), Call.of(Op.GE, DataType.BOOLEAN, DT, date)));
        for (Expr choice : stringChoices()) {
            plans.add(new FilterNode(scan(source), Call.of(Op.LIKE, DataType.BOOLEAN, choice, Literal.ofString("%a%"))));
            plans.add(groupedBy(new ProjectNode(scan(source), List.of(choice, N), schemaOf(List.of(choice, N)))));
        }
        return plans;
    }

    /** COUNT(*) and SUM(n) per value of column 0 (a string CASE's result): its dictionary must group as its strings. */
    private static AggregateNode groupedBy(PlanNode input) {
        List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "c"),
                new AggCall(AggFunction.SUM, List.of(1), false, DataType.BIGINT, "sn"));
        return new AggregateNode(input, List.of(0), calls, Schema.of(input.schema().field(0), new Field("c", DataType.BIGINT),
                new Field("sn", DataType.BIGINT)));
    }

    private static Expr caseWhen(Expr... args) {
        return Call.of(Op.CASE, DataType.VARCHAR, args);
    }

    private static Expr coalesce(Expr... args) {
        return Call.of(Op.COALESCE, DataType.VARCHAR, args);
    }

    private static Expr concat(Expr... args) {
        return Call.of(Op.CONCAT, DataType.VARCHAR, args);
    }

    private static Expr substringOf(Expr s) {
        return Call.of(Op.SUBSTRING, DataType.VARCHAR, s, Literal.ofLong(1, DataType.BIGINT), Literal.ofLong(1, DataType.BIGINT));
    }

    private static Schema schemaOf(List<Expr> exprs) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            fields.add(new Field("e" + i, exprs.get(i).type()));
        }
        return new Schema(fields);
    }
}
