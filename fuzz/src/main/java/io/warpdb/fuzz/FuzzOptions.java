package io.warpdb.fuzz;

import java.nio.file.Path;
import java.util.List;

/**
 * How a fuzz run goes.
 *
 * @param seconds          how long to generate new cases (minimising findings may take longer)
 * @param seed             the run's seed: the same seed runs the same cases
 * @param executors        WarpDB executors every query runs on ("cpu", and "gpu" when asked)
 * @param out              the folder findings are written to
 * @param queriesPerSchema cases per generated dataset
 * @param caseSeed         when set, only this case runs (a replay)
 * @param timeoutSeconds   the time limit of one query
 * @param minimizeSeconds  the time spent shrinking one finding
 * @param maxFindings      findings minimised and written per run (later ones are counted and listed)
 */
public record FuzzOptions(int seconds, long seed, List<String> executors, Path out, int queriesPerSchema, Long caseSeed,
        int timeoutSeconds, int minimizeSeconds, int maxFindings) {
    public static final Path DEFAULT_OUT = Path.of("target", "fuzz-findings");
    public static final int DEFAULT_QUERIES_PER_SCHEMA = 25;
    public static final int DEFAULT_TIMEOUT_SECONDS = 30;
    public static final int DEFAULT_MINIMIZE_SECONDS = 60;
    public static final int DEFAULT_MAX_FINDINGS = 10;

    public FuzzOptions {
        if (queriesPerSchema < 1 || queriesPerSchema > Seeds.MAX_QUERIES_PER_SCHEMA) {
            throw new IllegalArgumentException("--queries-per-schema must be between 1 and " + Seeds.MAX_QUERIES_PER_SCHEMA);
        }
        executors = List.copyOf(executors);
    }

    /** A run of {@code seconds} with every other option at its default. */
    public static FuzzOptions of(int seconds, long seed, List<String> executors) {
        return new FuzzOptions(seconds, seed, executors, DEFAULT_OUT, DEFAULT_QUERIES_PER_SCHEMA, null, DEFAULT_TIMEOUT_SECONDS,
                DEFAULT_MINIMIZE_SECONDS, DEFAULT_MAX_FINDINGS);
    }

    /** The executors for {@code --executor cpu|gpu}: always the CPU, and the GPU too when asked. */
    public static List<String> executorsFor(String executor) {
        return switch (executor) {
            case "cpu" -> List.of("cpu");
            case "gpu" -> List.of("cpu", "gpu");
            default -> throw new IllegalArgumentException("--executor must be cpu or gpu, not " + executor);
        };
    }
}
