package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.WarpException;
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
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lazy evaluation on the GPU against the CPU executor: an operand SQL evaluates only for some
 * rows (a CASE branch, a WHEN after a TRUE one, a later COALESCE argument, the right side of
 * AND / OR, what NULLIF and IN lower to) raises its errors (division by zero, overflow, casts,
 * failing dictionary entries) only for those rows, as TPC-DS q34/q73's
 * {@code CASE WHEN vc > 0 THEN dep / vc END > 1.2}. Each expression runs in a projection over
 * every row (the project kernel), as a filter predicate and as an output behind an interpreted
 * filter, on random columns whose values do trigger the errors on the rows not taken, at the
 * harness's sizes (empty, 1, warp edges, several tiles, many blocks) with NULLs. The
 * counter-cases take the failing branch: both executors fail with the same SQLSTATE.
 */
class LazyEvaluationTest extends GpuTestBase {
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final Schema SCHEMA = Schema.of(new Field("n", DataType.BIGINT), new Field("d", DataType.INTEGER),
            new Field("big", DataType.BIGINT), new Field("m", MONEY), new Field("x", DataType.DOUBLE),
            new Field("s", DataType.VARCHAR));
    private static final int N = 0;
    private static final int D = 1;
    private static final int BIG = 2;
    private static final int M = 3;
    private static final int X = 4;
    private static final int S = 5;
    /** Strings of column s: numbers, and texts whose CAST to INTEGER fails (those containing x). */
    private static final List<String> STRINGS = List.of("12", "-7", "0", "345", "x", "ax", "1x");
    /** Dictionary entries no row holds: a failing one must not raise either. */
    private static final List<String> UNUSED = List.of("zz", "99");

    private static final ColumnRef n = ref(N);
    private static final ColumnRef d = ref(D);
    private static final ColumnRef big = ref(BIG);
    private static final ColumnRef m = ref(M);
    private static final ColumnRef x = ref(X);
    private static final ColumnRef s = ref(S);

    @BeforeEach
    void requireGpu() {
        GpuTests.assumeGpu();
    }

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    /** An expression and the rows where the CPU raises {@code sqlState} for it (null: on none). */
    record Lazy(String name, Expr expr, IntPredicate failsAt, String sqlState) {
    }

    /** Expressions that are guarded so that no row fails, whatever the data. */
    static List<Lazy> guarded() {
        List<Lazy> out = new ArrayList<>();
        Expr nOverD = div(DataType.BIGINT, n, d);
        // TPC-DS q34/q73.
        out.add(ok("q34", gt(caseWhen(DataType.BIGINT, gt(d, i(0)), nOverD, nul(DataType.BIGINT)),
                Literal.ofLong(12, DataType.decimal(2, 1)))));
        out.add(ok("case guards a division", caseWhen(DataType.BIGINT, ne(d, i(0)), nOverD, nul(DataType.BIGINT))));
        out.add(ok("case guards a decimal division in the else branch",
                caseWhen(DataType.decimal(18, 6), eq(d, i(0)), m, div(DataType.decimal(18, 6), m, d))));
        out.add(ok("case guards an overflow", caseWhen(DataType.BIGINT,
                and(lt(big, l(1_000_000)), gt(big, l(-1_000_000))), mul(big, l(1_000_000_000_000L)), l(-1))));
        out.add(ok("case guards a cast to INTEGER", caseWhen(DataType.INTEGER,
                and(le(big, l(Integer.MAX_VALUE)), ge(big, l(Integer.MIN_VALUE))), cast(DataType.INTEGER, big), i(0))));
        out.add(ok("case guards a cast to a narrow decimal", caseWhen(DataType.decimal(5, 2),
                and(lt(m, money(99999)), gt(m, money(-99999))), cast(DataType.decimal(5, 2), m),
                Literal.ofLong(0, DataType.decimal(5, 2)))));
        out.add(ok("case guards a double to decimal cast", caseWhen(DataType.decimal(18, 2),
                and(lt(x, dbl(1e15)), gt(x, dbl(-1e15))), cast(DataType.decimal(18, 2), x),
                Literal.ofLong(0, DataType.decimal(18, 2)))));
        out.add(ok("case guards a double division", caseWhen(DataType.DOUBLE, ne(x, dbl(0)),
                div(DataType.DOUBLE, dbl(1), x), dbl(0))));
        out.add(ok("case guards a failing string cast", caseWhen(DataType.INTEGER, like(s, "%x%"), i(-1),
                cast(DataType.INTEGER, s))));
        // A WHEN after a TRUE one is not evaluated.
        out.add(ok("later whens are guarded by earlier ones", caseWhen(DataType.INTEGER,
                eq(d, i(0)), i(0),
                gt(nOverD, l(10)), i(1),
                lt(nOverD, l(-10)), i(2),
                i(3))));
        out.add(ok("nested case", caseWhen(DataType.BIGINT,
                isNull(d), l(-1),
                eq(d, i(0)), caseWhen(DataType.BIGINT, and(lt(big, l(1_000_000)), gt(big, l(-1_000_000))),
                        mul(big, l(1_000_000_000_000L)), l(0)),
                caseWhen(DataType.BIGINT, or(gt(big, l(1000)), lt(big, l(-1000))), nOverD,
                        div(DataType.BIGINT, mul(add(n, big), l(1_000_000_000_000_000L)), d)))));
        out.add(ok("case in the else branch", caseWhen(DataType.BIGINT, isNull(d), l(-1),
                caseWhen(DataType.BIGINT, eq(d, i(0)), l(0), nOverD))));
        out.add(ok("case of another type in the else branch", caseWhen(DataType.decimal(18, 2), isNull(d), money(-100),
                caseWhen(DataType.BIGINT, eq(d, i(0)), l(0), nOverD))));
        out.add(ok("nested case in a when", caseWhen(DataType.INTEGER,
                eq(caseWhen(DataType.BIGINT, eq(d, i(0)), l(0), nOverD), l(0)), i(1), i(2))));
        // COALESCE: later arguments only where the earlier ones are NULL.
        out.add(ok("coalesce guards a division", coalesce(DataType.BIGINT,
                caseWhen(DataType.BIGINT, eq(d, i(0)), l(-1), nul(DataType.BIGINT)), nOverD, l(-2))));
        out.add(ok("coalesce guards an overflow and a division", coalesce(DataType.BIGINT,
                caseWhen(DataType.BIGINT, eq(d, i(0)), l(0), nul(DataType.BIGINT)),
                caseWhen(DataType.BIGINT, or(gt(big, l(1_000_000)), lt(big, l(-1_000_000))), l(1), nul(DataType.BIGINT)),
                div(DataType.BIGINT, mul(big, l(1_000_000_000_000L)), d))));
        out.add(ok("coalesce guards a failing string cast", coalesce(DataType.INTEGER,
                caseWhen(DataType.INTEGER, like(s, "%x%"), i(0), nul(DataType.INTEGER)), cast(DataType.INTEGER, s))));
        // AND / OR: the right side only where the left side leaves the result open.
        out.add(ok("and guards a division", and(ne(d, i(0)), gt(nOverD, l(1)))));
        out.add(ok("or guards a division", or(eq(d, i(0)), gt(nOverD, l(1)))));
        out.add(ok("nested and guards an overflow and a division", and(and(lt(big, l(1_000_000)), gt(big, l(-1_000_000))),
                and(ne(d, i(0)), gt(div(DataType.BIGINT, mul(big, l(1_000_000_000_000L)), d), l(0))))));
        out.add(ok("or inside and", and(or(eq(d, i(0)), gt(nOverD, l(0))), or(isNull(d), ne(d, i(0))))));
        out.add(ok("and guards a failing string cast", and(not(like(s, "%x%")), gt(cast(DataType.INTEGER, s), i(3)))));
        out.add(ok("not of an or", not(or(eq(d, i(0)), gt(nOverD, l(1))))));
        // NULLIF(d, 0) is CASE WHEN d = 0 THEN NULL ELSE d END.
        out.add(ok("nullif guards a division", div(DataType.BIGINT, n, nullif(DataType.INTEGER, d, i(0)))));
        out.add(ok("nullif guards a double division", div(DataType.DOUBLE, dbl(1), nullif(DataType.DOUBLE, x, dbl(0)))));
        out.add(ok("nullif of a guarded division", nullif(DataType.BIGINT,
                caseWhen(DataType.BIGINT, ne(d, i(0)), nOverD, l(0)), l(1))));
        // IN with a non-constant value is d = 0 OR d = n / d.
        out.add(ok("in guards a division", Call.of(Op.IN, DataType.BOOLEAN, d, i(0), nOverD)));
        // The guarded expression inside arithmetic and a comparison.
        out.add(ok("guarded division in arithmetic", add(l(1), caseWhen(DataType.BIGINT, ne(d, i(0)), nOverD, l(0)))));
        return out;
    }

    /** Expressions whose taken branch fails on some rows: both executors fail alike. */
    static List<Lazy> failing(Data data) {
        IntPredicate divisionByZero = r -> data.d(r) != null && data.d(r) == 0 && data.n(r) != null;
        IntPredicate overflow = r -> data.big(r) != null && data.big(r) > 1_000_000;
        IntPredicate badString = r -> data.s(r) != null && data.s(r).contains("x");
        Expr nOverD = div(DataType.BIGINT, n, d);
        List<Lazy> out = new ArrayList<>();
        out.add(new Lazy("the taken branch divides by zero", caseWhen(DataType.BIGINT, eq(d, i(0)), nOverD, l(0)),
                divisionByZero, "22012"));
        out.add(new Lazy("q34 without the guard", gt(caseWhen(DataType.BIGINT, ge(d, i(0)), nOverD, nul(DataType.BIGINT)),
                Literal.ofLong(12, DataType.decimal(2, 1))), divisionByZero, "22012"));
        out.add(new Lazy("the else branch divides by zero", caseWhen(DataType.BIGINT, ne(d, i(0)), l(0), nOverD),
                divisionByZero, "22012"));
        out.add(new Lazy("the first when divides by zero", caseWhen(DataType.INTEGER, gt(nOverD, l(1)), i(1), i(0)),
                divisionByZero, "22012"));
        out.add(new Lazy("a later when divides where no earlier one is true",
                caseWhen(DataType.INTEGER, isNull(d), i(0), gt(nOverD, l(1)), i(1), i(2)), divisionByZero, "22012"));
        out.add(new Lazy("the taken branch of a taken nested case divides by zero", caseWhen(DataType.BIGINT,
                isNotNull(d), caseWhen(DataType.BIGINT, eq(d, i(0)), nOverD, l(1)), l(2)), divisionByZero, "22012"));
        out.add(new Lazy("the taken branch overflows", caseWhen(DataType.BIGINT, gt(big, l(1_000_000)),
                mul(big, l(1_000_000_000_000L)), l(0)), overflow, "22003"));
        out.add(new Lazy("coalesce reaches a division by zero", coalesce(DataType.BIGINT,
                caseWhen(DataType.BIGINT, eq(d, i(0)), nul(DataType.BIGINT), l(1)), nOverD), divisionByZero, "22012"));
        out.add(new Lazy("and evaluates its right side where the left is true", and(eq(d, i(0)), gt(nOverD, l(1))),
                divisionByZero, "22012"));
        out.add(new Lazy("or evaluates its right side where the left is false", or(ne(d, i(0)), gt(nOverD, l(1))),
                divisionByZero, "22012"));
        out.add(new Lazy("and evaluates an overflow where the left is true", and(gt(big, l(1_000_000)),
                gt(mul(big, l(1_000_000_000_000L)), l(0))), overflow, "22003"));
        out.add(new Lazy("the taken branch casts a bad string", caseWhen(DataType.INTEGER, like(s, "%x%"),
                cast(DataType.INTEGER, s), i(0)), badString, "22P02"));
        return out;
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void guardedOperandsRaiseNoErrorsForRowsNotTaken(int rows) {
        Data data = Data.random(new Random(rows * 7919L + 3), rows);
        try (ListSource source = data.source(allocator)) {
            for (Lazy lazy : guarded()) {
                String context = rows + " rows, " + lazy.name() + ": " + lazy.expr();
                for (PlanNode plan : plans(source, lazy.expr())) {
                    assertNull(errorOf(plan, "cpu"), context + ": the CPU must not fail (" + plan.describe() + ")");
                    ResultAssert.assertSameOrderedRows(planRows(plan, "cpu"), planRows(plan, "gpu"), context + ": " + plan.describe());
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void takenOperandsRaiseTheirErrorsOnBoth(int rows) {
        Data data = Data.random(new Random(rows * 104729L + 11), rows);
        try (ListSource source = data.source(allocator)) {
            for (Lazy lazy : failing(data)) {
                String context = rows + " rows, " + lazy.name() + ": " + lazy.expr();
                boolean fails = false;
                for (int r = 0; r < rows; r++) {
                    fails |= lazy.failsAt().test(r);
                }
                ProjectNode everyRow = project(scan(source), lazy.expr());
                assertEquals(fails ? lazy.sqlState() : null, errorOf(everyRow, "cpu"), context + ": on the CPU");
                for (PlanNode plan : plans(source, lazy.expr())) {
                    String cpu = errorOf(plan, "cpu");
                    assertEquals(cpu, errorOf(plan, "gpu"), context + ": " + plan.describe());
                    if (cpu == null) {
                        ResultAssert.assertSameOrderedRows(planRows(plan, "cpu"), planRows(plan, "gpu"), context + ": " + plan.describe());
                    }
                }
            }
        }
    }

    /**
     * The expression over every row (project kernel), behind an interpreted filter that keeps the
     * rows with d not 0 (the filter kernel's outputs), and as a predicate when it is BOOLEAN.
     */
    private List<PlanNode> plans(ListSource source, Expr e) {
        List<PlanNode> plans = new ArrayList<>();
        plans.add(project(scan(source), e, n, d));
        Expr keep = or(ne(d, i(0)), isNull(d));
        plans.add(project(new FilterNode(scan(source), keep), e, s));
        if (e.type().kind() == TypeKind.BOOLEAN) {
            plans.add(new FilterNode(scan(source), e));
            plans.add(project(new FilterNode(scan(source), e), n, e));
        }
        return plans;
    }

    private static ProjectNode project(PlanNode input, Expr... exprs) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < exprs.length; i++) {
            fields.add(new Field("e" + i, exprs[i].type()));
        }
        return new ProjectNode(input, List.of(exprs), new Schema(fields));
    }

    /** The SQLSTATE running the plan fails with, or null when it succeeds. */
    private String errorOf(PlanNode plan, String executor) {
        try {
            planRows(plan, executor);
            return null;
        } catch (WarpException e) {
            return e.sqlState();
        }
    }

    /**
     * Random columns in the literal form (Long, Double, String; null for NULL), about a tenth
     * NULL: n in [-1000, 1000]; d in [-3, 3], so a seventh is 0; big mostly within a million,
     * else beyond 10^15 (times 10^12 overflows); m small or large money; x quarters, zeros and
     * ±10^17 (overflows DECIMAL(18,2)); s numbers and texts that do not cast to INTEGER.
     */
    record Data(Object[][] columns, int rows, long seed) {
        static Data random(Random random, int rows) {
            Object[][] c = new Object[SCHEMA.size()][rows];
            for (int r = 0; r < rows; r++) {
                c[N][r] = random.nextInt(10) == 0 ? null : (long) (random.nextInt(2001) - 1000);
                c[D][r] = random.nextInt(10) == 0 ? null : (long) (random.nextInt(7) - 3);
                c[BIG][r] = random.nextInt(10) == 0 ? null : random.nextInt(10) < 7 ? (long) (random.nextInt(2_000_001) - 1_000_000)
                        : (random.nextBoolean() ? 1 : -1) * (1_000_000_000_000_000L + (long) (random.nextDouble() * 3e18));
                c[M][r] = random.nextInt(10) == 0 ? null : random.nextBoolean() ? (long) (random.nextInt(200_001) - 100_000)
                        : random.nextLong() % 100_000_000_000L;
                int kind = random.nextInt(20);
                c[X][r] = kind < 2 ? null : kind < 5 ? 0.0 : kind < 7 ? (kind == 5 ? 1e17 : -1e17)
                        : (random.nextInt(1 << 22) - (1 << 21)) / 4.0;
                c[S][r] = random.nextInt(10) == 0 ? null : STRINGS.get(random.nextInt(STRINGS.size()));
            }
            return new Data(c, rows, random.nextLong());
        }

        Long n(int r) {
            return (Long) columns[N][r];
        }

        Long d(int r) {
            return (Long) columns[D][r];
        }

        Long big(int r) {
            return (Long) columns[BIG][r];
        }

        String s(int r) {
            return (String) columns[S][r];
        }

        /** The rows in one to three batches (some possibly empty), strings over one shuffled dictionary with unused entries. */
        ListSource source(BufferAllocator allocator) {
            Random random = new Random(seed);
            List<String> entries = new ArrayList<>(STRINGS);
            entries.addAll(UNUSED);
            Collections.shuffle(entries, random);
            StringDictionary dictionary = StringDictionary.ofDistinct(entries);
            Map<String, Integer> codes = new HashMap<>();
            for (int i = 0; i < entries.size(); i++) {
                codes.put(entries.get(i), i);
            }
            List<Integer> cuts = new ArrayList<>(List.of(0, rows));
            for (int i = random.nextInt(3); i > 0; i--) {
                cuts.add(random.nextInt(rows + 1));
            }
            Collections.sort(cuts);
            List<Batch> batches = new ArrayList<>();
            try {
                for (int b = 0; b + 1 < cuts.size(); b++) {
                    batches.add(batch(cuts.get(b), cuts.get(b + 1), dictionary, codes, allocator));
                }
            } catch (RuntimeException e) {
                batches.forEach(Batch::close);
                throw e;
            }
            return new ListSource(SCHEMA, batches);
        }

        private Batch batch(int from, int to, StringDictionary dictionary, Map<String, Integer> codes, BufferAllocator allocator) {
            List<FieldVector> vectors = new ArrayList<>();
            List<StringDictionary> dictionaries = new ArrayList<>();
            try {
                for (int c = 0; c < SCHEMA.size(); c++) {
                    DataType type = SCHEMA.type(c);
                    FieldVector v = Vectors.allocate(SCHEMA.field(c).name(), type, to - from, allocator);
                    vectors.add(v);
                    for (int r = from; r < to; r++) {
                        Object value = columns[c][r];
                        Vectors.setNormalized(v, type, r - from, value instanceof String str ? codes.get(str) : value);
                    }
                    v.setValueCount(to - from);
                    dictionaries.add(type.kind().isString() ? dictionary : null);
                }
            } catch (RuntimeException e) {
                vectors.forEach(FieldVector::close);
                throw e;
            }
            return new Batch(SCHEMA, vectors, dictionaries, to - from);
        }
    }

    // ---- expression builders ----

    private static Lazy ok(String name, Expr e) {
        return new Lazy(name, e, r -> false, null);
    }

    private static ColumnRef ref(int i) {
        return new ColumnRef(i, SCHEMA.type(i));
    }

    private static Literal i(long v) {
        return Literal.ofLong(v, DataType.INTEGER);
    }

    private static Literal l(long v) {
        return Literal.ofLong(v, DataType.BIGINT);
    }

    private static Literal money(long unscaled) {
        return Literal.ofLong(unscaled, MONEY);
    }

    private static Literal dbl(double v) {
        return new Literal(v, DataType.DOUBLE.withNullable(false));
    }

    private static Literal nul(DataType type) {
        return Literal.ofNull(type);
    }

    private static Expr caseWhen(DataType type, Expr... args) {
        return Call.of(Op.CASE, type, args);
    }

    private static Expr coalesce(DataType type, Expr... args) {
        return Call.of(Op.COALESCE, type, args);
    }

    /** NULLIF(a, b) as the planner lowers it: CASE WHEN a = b THEN NULL ELSE a END. */
    private static Expr nullif(DataType type, Expr a, Expr b) {
        return caseWhen(type, eq(a, b), nul(type), a);
    }

    private static Expr div(DataType type, Expr a, Expr b) {
        return Call.of(Op.DIVIDE, type, a, b);
    }

    private static Expr mul(Expr a, Expr b) {
        return Call.of(Op.MULTIPLY, DataType.BIGINT, a, b);
    }

    private static Expr add(Expr a, Expr b) {
        return Call.of(Op.ADD, DataType.BIGINT, a, b);
    }

    private static Expr cast(DataType type, Expr a) {
        return Call.of(Op.CAST, type, a);
    }

    private static Expr like(Expr a, String pattern) {
        return Call.of(Op.LIKE, DataType.BOOLEAN, a, Literal.ofString(pattern));
    }

    private static Expr eq(Expr a, Expr b) {
        return Call.of(Op.EQ, DataType.BOOLEAN, a, b);
    }

    private static Expr ne(Expr a, Expr b) {
        return Call.of(Op.NE, DataType.BOOLEAN, a, b);
    }

    private static Expr lt(Expr a, Expr b) {
        return Call.of(Op.LT, DataType.BOOLEAN, a, b);
    }

    private static Expr le(Expr a, Expr b) {
        return Call.of(Op.LE, DataType.BOOLEAN, a, b);
    }

    private static Expr gt(Expr a, Expr b) {
        return Call.of(Op.GT, DataType.BOOLEAN, a, b);
    }

    private static Expr ge(Expr a, Expr b) {
        return Call.of(Op.GE, DataType.BOOLEAN, a, b);
    }

    private static Expr and(Expr a, Expr b) {
        return Call.of(Op.AND, DataType.BOOLEAN, a, b);
    }

    private static Expr or(Expr a, Expr b) {
        return Call.of(Op.OR, DataType.BOOLEAN, a, b);
    }

    private static Expr not(Expr a) {
        return Call.of(Op.NOT, DataType.BOOLEAN, a);
    }

    private static Expr isNull(Expr a) {
        return Call.of(Op.IS_NULL, DataType.BOOLEAN, a);
    }

    private static Expr isNotNull(Expr a) {
        return Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, a);
    }
}
