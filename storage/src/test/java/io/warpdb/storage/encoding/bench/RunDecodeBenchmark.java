package io.warpdb.storage.encoding.bench;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link DecodeBenchmark} briefly (1 fork, 2 warm-up and 3 measured iterations of 1 s) and
 * prints decode throughput per encoding in values/s and MB/s of decoded data. Run it with the
 * test classpath; the command is in the storage module's encoding notes (see the report).
 */
public final class RunDecodeBenchmark {
    private RunDecodeBenchmark() {
    }

    public static void main(String[] args) throws RunnerException {
        Options options = new OptionsBuilder()
                .include(DecodeBenchmark.class.getName())
                .forks(1)
                .warmupIterations(2)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(3)
                .measurementTime(TimeValue.seconds(1))
                .jvmArgsAppend("--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx2g")
                .build();
        Collection<RunResult> results = new Runner(options).run();
        System.out.printf("%n%-20s %-26s %15s %12s%n", "dataset", "encoding", "values/s", "MB/s");
        for (RunResult result : results) {
            DecodeBenchmark.Dataset dataset = DecodeBenchmark.Dataset.valueOf(result.getParams().getParam("dataset"));
            double valuesPerSecond = result.getPrimaryResult().getScore();
            System.out.printf("%-20s %-26s %15.3e %12.0f%n", dataset, dataset.expectedDescription, valuesPerSecond,
                    valuesPerSecond * dataset.decodedBytesPerValue() / 1e6);
        }
    }
}
