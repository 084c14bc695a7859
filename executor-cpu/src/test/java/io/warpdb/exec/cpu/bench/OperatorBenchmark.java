package io.warpdb.exec.cpu.bench;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
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
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The hot CPU operators, each over {@value #ROWS} input rows of BIGINT columns held in Arrow
 * memory (no storage decoding), run through the executor as small plans with the given degree of
 * parallelism. One operation is one input row, so scores are input rows per second:
 * <ul>
 * <li>filter: {@code a WHERE a < 10 %} of the value range;
 * <li>project: {@code a * 3 + b} (overflow-checked);
 * <li>joinBuild: a join whose build side has {@value #BUILD_ROWS} distinct keys and whose probe
 *     side is one row (so the build dominates; rows counted are the build's);
 * <li>joinProbe: the same build probed by {@value #ROWS} rows, half of which match once;
 * <li>hashAggregate: {@code SUM(b), COUNT(*) GROUP BY a % 100000};
 * <li>sort: {@code ORDER BY b} of {@value #SORT_ROWS} rows;
 * <li>topN: {@code ORDER BY a DESC LIMIT 100} of {@value #ROWS} rows.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OperatorBenchmark {
    static final int ROWS = 4 << 20;
    static final int BUILD_ROWS = 1 << 20;
    static final int SORT_ROWS = 1 << 20;
    private static final DataType BIGINT = DataType.BIGINT;

    @Param({"1", "2"})
    public int parallelism;

    private BufferAllocator allocator;
    private ArrowTable facts;
    private ArrowTable dimension;
    private ArrowTable single;
    private ArrowTable sortInput;

    @Setup
    public void setUp() {
        allocator = new RootAllocator();
        // a: a pseudo-random permutation-like spread over [0, 2^22 * 2); b: row number.
        facts = new ArrowTable(ROWS, (c, r) -> c == 0 ? (r * 0x9E3779B1L) % (2L * ROWS) : r, allocator, "a", "b");
        dimension = new ArrowTable(BUILD_ROWS, (c, r) -> c == 0 ? r * 8 : r, allocator, "k", "v");
        single = new ArrowTable(1, (c, r) -> 8, allocator, "a", "b");
        sortInput = new ArrowTable(SORT_ROWS, (c, r) -> c == 0 ? r : (r * 0x9E3779B1L) % SORT_ROWS, allocator, "a", "b");
    }

    @TearDown
    public void tearDown() {
        facts.close();
        dimension.close();
        single.close();
        sortInput.close();
        allocator.close();
    }

    private static ScanNode scan(ArrowTable table) {
        return ScanNode.of(table, List.of(0, 1));
    }

    private static ColumnRef col(int index) {
        return new ColumnRef(index, BIGINT);
    }

    private static Literal lit(long value) {
        return new Literal(value, BIGINT);
    }

    /** Runs the plan to its end; returns its row count (consumed by JMH). */
    private long run(PlanNode plan) {
        ExecContext context = new ExecContext(allocator);
        context.setParallelism(parallelism);
        long rows = 0;
        try (BatchStream stream = new CpuExecutorProvider().execute(plan, context)) {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                rows += b.rowCount();
                b.close();
            }
        }
        return rows;
    }

    private static JoinNode join(PlanNode probe, PlanNode build) {
        return new JoinNode(probe, build, JoinKind.INNER, List.of(0), List.of(0), null, probe.schema().concat(build.schema()));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long filter() {
        Expr tenPercent = new Call(Op.LT, List.of(col(0), lit(ROWS / 5)), DataType.BOOLEAN);
        return run(new FilterNode(scan(facts), tenPercent));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long project() {
        Expr expr = new Call(Op.ADD, List.of(new Call(Op.MULTIPLY, List.of(col(0), lit(3)), BIGINT), col(1)), BIGINT);
        return run(new ProjectNode(scan(facts), List.of(expr), Schema.of(new Field("x", BIGINT))));
    }

    @Benchmark
    @OperationsPerInvocation(BUILD_ROWS)
    public long joinBuild() {
        // A SEMI join builds on its right input however small the left: an inner join would index the one left row instead.
        ScanNode probe = scan(single);
        return run(new JoinNode(probe, scan(dimension), JoinKind.SEMI, List.of(0), List.of(0), null, probe.schema()));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long joinProbe() {
        return run(join(scan(facts), scan(dimension)));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long hashAggregate() {
        Expr group = new Call(Op.MOD, List.of(col(0), lit(100_000)), BIGINT);
        ProjectNode keyed = new ProjectNode(scan(facts), List.of(group, col(1)),
                Schema.of(new Field("g", BIGINT), new Field("b", BIGINT)));
        List<AggCall> calls = List.of(new AggCall(AggFunction.SUM, List.of(1), false, BIGINT, "s"),
                new AggCall(AggFunction.COUNT_STAR, List.of(), false, BIGINT, "n"));
        return run(new AggregateNode(keyed, List.of(0), calls,
                Schema.of(new Field("g", BIGINT), new Field("s", BIGINT), new Field("n", BIGINT))));
    }

    @Benchmark
    @OperationsPerInvocation(SORT_ROWS)
    public long sort() {
        return run(new SortNode(scan(sortInput), List.of(new SortKey(1, false, false)), 0, -1));
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long topN() {
        return run(new SortNode(scan(facts), List.of(new SortKey(0, true, false)), 0, 100));
    }
}
