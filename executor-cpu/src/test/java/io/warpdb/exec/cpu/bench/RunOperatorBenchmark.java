package io.warpdb.exec.cpu.bench;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link OperatorBenchmark} briefly (1 fork, 2 warm-up and 3 measured iterations of 2 s)
 * and prints input rows per second per operator and parallelism. Run it with the test classpath
 * (command in docs/benchmarks.md); an argument narrows the benchmarks by regular expression.
 */
public final class RunOperatorBenchmark {
    private RunOperatorBenchmark() {
    }

    public static void main(String[] args) throws RunnerException {
        Options options = new OptionsBuilder()
                .include(OperatorBenchmark.class.getName() + (args.length > 0 ? "." + args[0] : ""))
                .forks(1)
                .warmupIterations(2)
                .warmupTime(TimeValue.seconds(2))
                .measurementIterations(3)
                .measurementTime(TimeValue.seconds(2))
                .jvmArgsAppend("--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx4g")
                .build();
        Collection<RunResult> results = new Runner(options).run();
        System.out.printf("%n%-15s %11s %16s %10s%n", "operator", "parallelism", "input rows/s", "error");
        for (RunResult result : results) {
            String name = result.getParams().getBenchmark();
            System.out.printf("%-15s %11s %16.3e %10.1e%n", name.substring(name.lastIndexOf('.') + 1),
                    result.getParams().getParam("parallelism"), result.getPrimaryResult().getScore(),
                    result.getPrimaryResult().getScoreError());
        }
    }
}
