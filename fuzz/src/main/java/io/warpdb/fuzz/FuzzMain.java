package io.warpdb.fuzz;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs the fuzzer from the module's own class path:
 * {@code java io.warpdb.fuzz.FuzzMain --seconds N --seed S [--executor cpu|gpu] [--out DIR]
 * [--queries-per-schema K] [--case-seed X] [--query-timeout S] [--minimize-seconds S]
 * [--max-findings N]} (the options of {@code warpdb fuzz}).
 * Exits 1 on any mismatch or raw error, 2 when the asked executor is not available.
 */
public final class FuzzMain {
    private FuzzMain() {
    }

    public static void main(String[] args) {
        int seconds = 60;
        long seed = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        String executor = "cpu";
        Path out = FuzzOptions.DEFAULT_OUT;
        int queriesPerSchema = FuzzOptions.DEFAULT_QUERIES_PER_SCHEMA;
        Long caseSeed = null;
        int timeoutSeconds = FuzzOptions.DEFAULT_TIMEOUT_SECONDS;
        int minimizeSeconds = FuzzOptions.DEFAULT_MINIMIZE_SECONDS;
        int maxFindings = FuzzOptions.DEFAULT_MAX_FINDINGS;
        for (int i = 0; i < args.length; i += 2) {
            String value = i + 1 < args.length ? args[i + 1] : usage("missing value of " + args[i]);
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--executor" -> executor = value;
                case "--out" -> out = Path.of(value);
                case "--queries-per-schema" -> queriesPerSchema = Integer.parseInt(value);
                case "--case-seed" -> caseSeed = Long.parseLong(value);
                case "--query-timeout" -> timeoutSeconds = Integer.parseInt(value);
                case "--minimize-seconds" -> minimizeSeconds = Integer.parseInt(value);
                case "--max-findings" -> maxFindings = Integer.parseInt(value);
                default -> usage("unknown option " + args[i]);
            }
        }
        List<String> executors = FuzzOptions.executorsFor(executor);
        for (String e : executors) {
            String reason = Engines.unavailableReason(e);
            if (reason != null) {
                System.err.println("fuzz: executor '" + e + "' is not available: " + reason);
                System.exit(2);
            }
        }
        FuzzOptions options = new FuzzOptions(seconds, seed, executors, out, queriesPerSchema, caseSeed, timeoutSeconds,
                minimizeSeconds, maxFindings);
        System.exit(new Fuzzer(options, System.out).run().exitCode());
    }

    private static String usage(String problem) {
        System.err.println("fuzz: " + problem);
        System.err.println("usage: FuzzMain --seconds N --seed S [--executor cpu|gpu] [--out DIR] [--queries-per-schema K]"
                + " [--case-seed X] [--query-timeout S] [--minimize-seconds S] [--max-findings N]");
        System.exit(2);
        return null;
    }
}
