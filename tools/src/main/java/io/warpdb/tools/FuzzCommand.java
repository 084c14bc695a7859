package io.warpdb.tools;

import io.warpdb.fuzz.Engines;
import io.warpdb.fuzz.FuzzOptions;
import io.warpdb.fuzz.Fuzzer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code warpdb fuzz}: the differential query fuzzer (module fuzz). Random tables, data and
 * queries; each query checked against DuckDB or by ternary logic partitioning and NoREC on
 * WarpDB alone; findings minimised into sqllogictest files.
 */
@Command(name = "fuzz", mixinStandardHelpOptions = true,
        description = "Fuzz the SQL engine: random queries checked against DuckDB and by TLP/NoREC; exit 1 on any mismatch or"
                + " raw error, 2 when the executor is not available.")
public final class FuzzCommand implements Callable<Integer> {
    @Option(names = "--seconds", description = "How long to generate new cases (default: 60); minimising a finding may add to it.")
    int seconds = 60;

    @Option(names = "--seed", description = "The run's seed: the same seed runs the same cases (default: a random one, printed).")
    Long seed;

    @Option(names = "--executor", description = "cpu, or gpu to run every query on both the CPU and the GPU executor (default: cpu).")
    String executor = "cpu";

    @Option(names = "--out", description = "Folder for the findings' .test files (default: target/fuzz-findings).")
    Path out = FuzzOptions.DEFAULT_OUT;

    @Option(names = "--queries-per-schema", description = "Cases per generated dataset (default: 25).")
    int queriesPerSchema = FuzzOptions.DEFAULT_QUERIES_PER_SCHEMA;

    @Option(names = "--case-seed", description = "Replay one case (each finding prints its case seed), minimise it and write it.")
    Long caseSeed;

    @Option(names = "--query-timeout", description = "Seconds one query may run (default: 30).")
    int timeoutSeconds = FuzzOptions.DEFAULT_TIMEOUT_SECONDS;

    @Option(names = "--minimize-seconds", description = "Seconds spent shrinking one finding (default: 60).")
    int minimizeSeconds = FuzzOptions.DEFAULT_MINIMIZE_SECONDS;

    @Option(names = "--max-findings", description = "Findings minimised and written per run; later ones are listed (default: 10).")
    int maxFindings = FuzzOptions.DEFAULT_MAX_FINDINGS;

    @Override
    public Integer call() {
        List<String> executors = FuzzOptions.executorsFor(executor);
        for (String e : executors) {
            String reason = Engines.unavailableReason(e);
            if (reason != null) {
                System.err.println("warpdb fuzz: executor '" + e + "' is not available: " + reason);
                return 2;
            }
        }
        long runSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        FuzzOptions options = new FuzzOptions(seconds, runSeed, executors, out, queriesPerSchema, caseSeed, timeoutSeconds,
                minimizeSeconds, maxFindings);
        return new Fuzzer(options, System.out).run().exitCode();
    }
}
