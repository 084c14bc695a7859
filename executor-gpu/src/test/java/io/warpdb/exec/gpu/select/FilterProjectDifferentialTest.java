package io.warpdb.exec.gpu.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorRegistry;
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
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GPU's SELECT and PROJECT against the CPU executor on random columns of every type, at
 * sizes around the warp (31/32/33), the tile (2047/2048/2049) and many tiles, with NULLs,
 * duplicates, extremes and dictionaries that differ between batches.
 */
class FilterProjectDifferentialTest {
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final Schema SCHEMA = Schema.of(new Field("a", DataType.BIGINT), new Field("i", DataType.INTEGER),
            new Field("d", MONEY), new Field("x", DataType.DOUBLE), new Field("dt", DataType.DATE),
            new Field("s", DataType.VARCHAR), new Field("b", DataType.BOOLEAN));
    private static final String[] WORDS = {"apple", "banana", "cherry", "abba", "zebra", "kiwi", "", "fig ab", "date", "lime"};

    private BufferAllocator allocator;

    @BeforeAll
    static void requireGpu() {
        String reason = CudaDevice.availability().reason();
        if (reason != null) {
            System.out.println("GPU tests skipped: " + reason);
        }
        Assumptions.assumeTrue(CudaDevice.availability().supported(), "no GPU: " + reason);
    }

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        assertEquals(List.of(), CudaDevice.get().pool().liveOwners().stream()
                .filter(o -> !o.startsWith("column")).toList(), "device memory leaked");
        allocator.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 31, 32, 33, 2047, 2048, 2049, 100_003})
    void filtersAndProjectionsMatchTheCpu(int rows) {
        Source source = new Source(random(rows, rows * 31L + 7));
        try {
            ColumnRef a = ref(0);
            ColumnRef i = ref(1);
            ColumnRef d = ref(2);
            ColumnRef x = ref(3);
            ColumnRef dt = ref(4);
            ColumnRef s = ref(5);
            ColumnRef b = ref(6);
            List<Expr> predicates = List.of(
                    Call.of(Op.GT, DataType.BOOLEAN, a, Literal.ofLong(Long.MIN_VALUE, DataType.BIGINT)), // all non-null
                    Call.of(Op.LT, DataType.BOOLEAN, a, Literal.ofLong(Long.MIN_VALUE, DataType.BIGINT)), // none
                    Call.of(Op.GT, DataType.BOOLEAN, a, Literal.ofLong(0, DataType.BIGINT)),
                    Call.of(Op.AND, DataType.BOOLEAN, Call.of(Op.LE, DataType.BOOLEAN, d, Literal.ofLong(5000, MONEY)),
                            Call.of(Op.LIKE, DataType.BOOLEAN, s, Literal.ofString("%ab%"))),
                    Call.of(Op.OR, DataType.BOOLEAN, b, Call.of(Op.IS_NULL, DataType.BOOLEAN, i)),
                    Call.of(Op.GE, DataType.BOOLEAN, dt, Literal.ofLong(9000, DataType.DATE)));
            List<Expr> projections = List.of(a, s,
                    Call.of(Op.ADD, DataType.BIGINT, a, i),
                    Call.of(Op.MULTIPLY, DataType.decimal(18, 4), d, d),
                    Call.of(Op.MULTIPLY, MONEY, d, Call.of(Op.SUBTRACT, MONEY, Literal.ofLong(100, MONEY), d)),
                    Call.of(Op.DIVIDE, DataType.decimal(18, 6), d, Literal.ofLong(300, MONEY)),
                    Call.of(Op.DIVIDE, DataType.DOUBLE, x, Literal.ofLong(2, DataType.BIGINT)),
                    Call.of(Op.CASE, MONEY, Call.of(Op.GT, DataType.BOOLEAN, a, Literal.ofLong(0, DataType.BIGINT)), d,
                            Call.of(Op.NEGATE, MONEY, d)),
                    Call.of(Op.EXTRACT_YEAR, DataType.BIGINT, dt),
                    Call.of(Op.EXTRACT_DOW, DataType.BIGINT, dt),
                    Call.of(Op.DATE_ADD_MONTHS, DataType.DATE, dt, Literal.ofLong(1, DataType.INTEGER)),
                    Call.of(Op.SUBSTRING, DataType.VARCHAR, s, Literal.ofLong(1, DataType.BIGINT), Literal.ofLong(2, DataType.BIGINT)),
                    Call.of(Op.COALESCE, DataType.BIGINT, a, Literal.ofLong(-1, DataType.BIGINT)),
                    Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, i),
                    Call.of(Op.CAST, DataType.DOUBLE, d),
                    Call.of(Op.CAST, DataType.decimal(12, 1), d),
                    Call.of(Op.IN, DataType.BOOLEAN, i, Literal.ofLong(3, DataType.INTEGER), Literal.ofLong(5, DataType.INTEGER)),
                    Call.of(Op.NOT, DataType.BOOLEAN, b));
            Schema out = schemaOf(projections);
            // Outputs that read no column (constants) still go through the interpreter.
            List<Expr> constants = List.of(a, Literal.ofNull(DataType.INTEGER), Literal.ofLong(7, DataType.BIGINT));
            for (Expr p : predicates) {
                assertSame(new FilterNode(scan(source), p));
                assertSame(new ProjectNode(new FilterNode(scan(source), p), constants, schemaOf(constants)));
                assertSame(new ProjectNode(new FilterNode(scan(source), p), projections, out));
            }
            assertSame(new ProjectNode(scan(source), projections, out));
        } finally {
            source.close();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 31, 32, 33, 2047, 2048, 2049, 100_003})
    void aggregatesMatchTheCpu(int rows) {
        Source source = new Source(random(rows, rows * 17L + 3));
        try {
            List<AggCall> calls = List.of(
                    new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"),
                    new AggCall(AggFunction.COUNT, List.of(1), false, DataType.BIGINT, "ni"),
                    new AggCall(AggFunction.SUM, List.of(0), false, DataType.BIGINT, "sa"),
                    new AggCall(AggFunction.SUM, List.of(2), false, DataType.decimal(18, 2), "sd"),
                    new AggCall(AggFunction.AVG, List.of(2), false, DataType.decimal(18, 2), "ad"),
                    new AggCall(AggFunction.AVG, List.of(1), false, DataType.DOUBLE, "ai"),
                    new AggCall(AggFunction.SUM, List.of(3), false, DataType.DOUBLE, "sx"),
                    new AggCall(AggFunction.MIN, List.of(3), false, DataType.DOUBLE, "minx"),
                    new AggCall(AggFunction.MAX, List.of(4), false, DataType.DATE, "maxdt"),
                    new AggCall(AggFunction.MIN, List.of(2), false, MONEY, "mind"),
                    new AggCall(AggFunction.MAX, List.of(6), false, DataType.BOOLEAN, "maxb"));
            for (List<Integer> keys : List.of(List.<Integer>of(), List.of(5), List.of(1, 6), List.of(0), List.of(5, 4))) {
                List<Field> fields = new ArrayList<>();
                keys.forEach(k -> fields.add(SCHEMA.field(k)));
                calls.forEach(c -> fields.add(new Field(c.name(), c.type())));
                assertSameRows(new AggregateNode(scan(source), keys, calls, new Schema(fields)));
            }
        } finally {
            source.close();
        }
    }

    /** A CAST that fails for some strings fails only where a kept row holds one, as on the CPU. */
    @ParameterizedTest
    @ValueSource(ints = {1, 5000})
    void failingStringCastsOnlyFailForKeptRows(int rows) {
        Source source = new Source(random(rows, 5));
        try {
            Expr cast = Call.of(Op.CAST, DataType.INTEGER, ref(5));
            Expr none = Call.of(Op.LT, DataType.BOOLEAN, ref(0), Literal.ofLong(Long.MIN_VALUE, DataType.BIGINT));
            assertSame(new ProjectNode(new FilterNode(scan(source), none), List.of(cast), schemaOf(List.of(cast))));
            ProjectNode all = new ProjectNode(scan(source), List.of(cast), schemaOf(List.of(cast)));
            assertEquals(errorOf(all, "cpu"), errorOf(all, "gpu"));
        } finally {
            source.close();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5000})
    void arithmeticErrorsMatchTheCpu(int rows) {
        Source source = new Source(random(rows, 99));
        try {
            Expr byZero = Call.of(Op.DIVIDE, DataType.BIGINT, ref(0), Literal.ofLong(0, DataType.BIGINT));
            Expr overflow = Call.of(Op.MULTIPLY, DataType.BIGINT, Literal.ofLong(Long.MAX_VALUE, DataType.BIGINT),
                    Call.of(Op.ADD, DataType.BIGINT, Literal.ofLong(2, DataType.BIGINT),
                            Call.of(Op.MULTIPLY, DataType.BIGINT, ref(0), Literal.ofLong(0, DataType.BIGINT))));
            for (Expr e : List.of(byZero, overflow)) {
                ProjectNode plan = new ProjectNode(scan(source), List.of(e), schemaOf(List.of(e)));
                String cpu = assertThrows(WarpException.class, () -> drain(plan, "cpu")).sqlState();
                String gpu = assertThrows(WarpException.class, () -> drain(plan, "gpu")).sqlState();
                assertEquals(cpu, gpu, e.toString());
            }
        } finally {
            source.close();
        }
    }

    /** Aggregates come out in no particular order: compare sorted rows (sums of doubles to 9 digits). */
    private void assertSameRows(PlanNode plan) {
        String cpuError = errorOf(plan, "cpu");
        if (cpuError != null) {
            assertEquals(cpuError, errorOf(plan, "gpu"), plan.describe());
            return;
        }
        List<String> cpu = new ArrayList<>(drain(plan, "cpu").stream().map(r -> r.replaceAll("(\\d\\.\\d{8})\\d*", "$1")).toList());
        List<String> gpu = new ArrayList<>(drain(plan, "gpu").stream().map(r -> r.replaceAll("(\\d\\.\\d{8})\\d*", "$1")).toList());
        java.util.Collections.sort(cpu);
        java.util.Collections.sort(gpu);
        assertEquals(cpu, gpu, plan.describe());
    }

    /** The SQLSTATE running the plan fails with, or null when it succeeds. */
    private String errorOf(PlanNode plan, String executor) {
        try {
            drain(plan, executor);
            return null;
        } catch (WarpException e) {
            return e.sqlState();
        }
    }

    private void assertSame(PlanNode plan) {
        List<String> cpu = drain(plan, "cpu");
        List<String> gpu = drain(plan, "gpu");
        assertEquals(cpu.size(), gpu.size(), "row count of " + plan.describe());
        for (int r = 0; r < cpu.size(); r++) {
            assertEquals(cpu.get(r), gpu.get(r), "row " + r + " of " + plan.describe());
        }
    }

    /** Rows in order, rendered as text (doubles to 12 significant digits). */
    private List<String> drain(PlanNode plan, String executor) {
        Map<PlanNode, String> placement = new IdentityHashMap<>();
        placeAll(plan, executor, placement);
        ExecContext context = new ExecContext(allocator,
                new ExecutorRegistry(List.of(new CpuExecutorProvider(), new GpuExecutorProvider())), placement);
        List<String> rows = new ArrayList<>();
        try (BatchStream stream = context.run(plan)) {
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                try (Batch batch = next) {
                    for (int r = 0; r < batch.rowCount(); r++) {
                        StringBuilder sb = new StringBuilder();
                        for (int c = 0; c < batch.columnCount(); c++) {
                            Object v = batch.getObject(c, r);
                            sb.append(v instanceof Double dv ? String.format("%.12g", dv) : String.valueOf(v)).append('|');
                        }
                        rows.add(sb.toString());
                    }
                }
            }
        }
        return rows;
    }

    private static void placeAll(PlanNode node, String executor, Map<PlanNode, String> placement) {
        placement.put(node, executor);
        node.inputs().forEach(in -> placeAll(in, executor, placement));
    }

    private static ScanNode scan(Source source) {
        return ScanNode.of(source, List.of(0, 1, 2, 3, 4, 5, 6));
    }

    private static ColumnRef ref(int i) {
        return new ColumnRef(i, SCHEMA.type(i));
    }

    private static Schema schemaOf(List<Expr> exprs) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            fields.add(new Field("e" + i, exprs.get(i).type()));
        }
        return new Schema(fields);
    }

    /** Random rows in batches of up to 30,000; every fifth value NULL; string dictionaries differ per batch. */
    private List<Batch> random(int rows, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Batch> batches = new ArrayList<>();
        for (int start = 0; start < rows || batches.isEmpty(); start += 30_000) {
            int n = Math.min(30_000, rows - start);
            List<String> words = new ArrayList<>(List.of(WORDS));
            java.util.Collections.rotate(words, batches.size());
            StringDictionary dict = StringDictionary.ofDistinct(words);
            List<FieldVector> vectors = new ArrayList<>();
            List<StringDictionary> dicts = new ArrayList<>();
            for (int c = 0; c < SCHEMA.size(); c++) {
                DataType type = SCHEMA.type(c);
                FieldVector v = Vectors.allocate(SCHEMA.field(c).name(), type, n, allocator);
                for (int r = 0; r < n; r++) {
                    Vectors.setNormalized(v, type, r, rnd.nextInt(5) == 0 ? null : value(type, rnd, dict));
                }
                v.setValueCount(n);
                vectors.add(v);
                dicts.add(type.kind().isString() ? dict : null);
            }
            batches.add(new Batch(SCHEMA, vectors, dicts, n));
        }
        return batches;
    }

    private static Object value(DataType type, SplittableRandom rnd, StringDictionary dict) {
        return switch (type.kind()) {
            case BIGINT -> rnd.nextInt(10) == 0 ? (rnd.nextBoolean() ? Long.MAX_VALUE / 4 : Long.MIN_VALUE / 4) : rnd.nextLong(-1000, 1000);
            case INTEGER -> rnd.nextInt(-10, 10);
            case DECIMAL -> rnd.nextLong(-1_000_000, 1_000_000);
            case DOUBLE -> rnd.nextInt(10) == 0 ? -0.0 : rnd.nextDouble(-1e6, 1e6);
            case DATE -> rnd.nextLong(-1000, 20000);
            case VARCHAR -> rnd.nextInt(dict.size());
            case BOOLEAN -> rnd.nextBoolean();
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** The batches as a table; each scan hands out new references to the same buffers. */
    private static final class Source implements TableSource, AutoCloseable {
        private final List<Batch> batches;

        Source(List<Batch> batches) {
            this.batches = batches;
        }

        @Override
        public String name() {
            return "random";
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public long rowCount() {
            return batches.stream().mapToLong(Batch::rowCount).sum();
        }

        @Override
        public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
            return Batches.of(SCHEMA.select(columns), batches.stream().map(b -> b.project(columns, allocator)).toList());
        }

        @Override
        public void close() {
            batches.forEach(Batch::close);
        }
    }
}
