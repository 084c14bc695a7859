package io.warpdb.exec.cpu.bench;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.ColumnsInput;
import io.warpdb.exec.cpu.expr.EvalInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * TPC-H q01's charge, {@code price * (1 - discount) * (1 + tax)} over DECIMAL(15,2) columns, in one
 * batch of {@value #ROWS} rows, alone ({@code polluted=false}) and after the JIT has seen the
 * other shapes of arithmetic other queries run (integer division, MOD, a product rounded to a
 * smaller scale, additions across scales, NULLs, DOUBLE): the isolating check of whether one
 * query's arithmetic is compiled for the shapes of others (docs/benchmarks.md, TPC-H q01 after
 * the other 21 queries). Scores are rows per second. {@code main} runs it briefly (1 fork, 3
 * warm-up and 5 measured iterations of 1 s) with the test classpath.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ArithmeticProfileBenchmark {
    static final int ROWS = 1 << 16;
    private static final DataType MONEY = DataType.decimal(15, 2);
    private static final int POLLUTING_RUNS = 2_000;

    @Param({"false", "true"})
    public boolean polluted;

    private EvalInput input;
    private Evaluator charge;

    @Setup
    public void setUp() {
        Random random = new Random(1);
        long[] price = new long[ROWS];
        long[] discount = new long[ROWS];
        long[] tax = new long[ROWS];
        boolean[] someNull = new boolean[ROWS];
        for (int i = 0; i < ROWS; i++) {
            price[i] = 90_000 + random.nextInt(10_000_000);
            discount[i] = random.nextInt(11);
            tax[i] = random.nextInt(9);
            someNull[i] = i % 7 == 0;
        }
        input = new ColumnsInput(ROWS, Column.ofLongs(MONEY, price, null), Column.ofLongs(MONEY, discount, null),
                Column.ofLongs(MONEY, tax, someNull));
        Expr discounted = call(Op.MULTIPLY, DataType.decimal(18, 4), col(0), call(Op.SUBTRACT, DataType.decimal(16, 2), one(), col(1)));
        charge = ExprCompiler.compile(call(Op.MULTIPLY, DataType.decimal(18, 6), discounted,
                call(Op.ADD, DataType.decimal(16, 2), one(), col(2))));
        if (polluted) {
            pollute();
        }
    }

    /** Runs the other queries' shapes until the JIT has compiled them. */
    private void pollute() {
        Expr wide = call(Op.MULTIPLY, DataType.decimal(18, 4), col(0), col(1));
        List<Expr> others = List.of(
                call(Op.DIVIDE, DataType.BIGINT, col(0), call(Op.ADD, DataType.BIGINT, col(1), new Literal(1L, DataType.BIGINT))),
                call(Op.MOD, DataType.decimal(15, 2), col(0), call(Op.ADD, DataType.decimal(16, 2), one(), col(1))),
                call(Op.MULTIPLY, DataType.decimal(18, 6), wide, wide),
                call(Op.ADD, DataType.decimal(18, 4), col(2), wide),
                call(Op.SUBTRACT, DataType.decimal(16, 2), col(2), col(0)),
                call(Op.DIVIDE, DataType.DOUBLE, col(0), call(Op.ADD, DataType.decimal(16, 2), one(), col(1))));
        for (Expr other : others) {
            Evaluator evaluator = ExprCompiler.compile(other);
            for (int run = 0; run < POLLUTING_RUNS / others.size(); run++) {
                evaluator.evaluate(input);
            }
        }
    }

    private static Expr call(Op op, DataType type, Expr... args) {
        return new Call(op, List.of(args), type);
    }

    private static Expr col(int index) {
        return new ColumnRef(index, MONEY);
    }

    private static Expr one() {
        return new Literal(1L, DataType.INTEGER);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public long charge() {
        return charge.evaluate(input).longs()[ROWS - 1];
    }

    public static void main(String[] args) throws RunnerException {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(ArithmeticProfileBenchmark.class.getName())
                .forks(1)
                .warmupIterations(3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(1))
                .build()).run();
        for (RunResult result : results) {
            System.out.printf("polluted=%-5s %12.3e rows/s +- %.1e%n", result.getParams().getParam("polluted"),
                    result.getPrimaryResult().getScore(), result.getPrimaryResult().getScoreError());
        }
    }
}
