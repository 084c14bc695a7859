package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Dialect;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The fuzz loop: datasets from the run's seed, cases over each (an oracle and its queries),
 * each checked on every asked executor; findings are minimised and written as .test files.
 * Prints progress about every 10 seconds and the statistics at the end.
 */
public final class Fuzzer {
    /** Oracle used for a dataset that fails to load. */
    static final String LOAD = "load";
    private static final long PROGRESS_MILLIS = 10_000;
    private static final int MINIMIZE_ATTEMPTS = 1000;

    /** What a run did: the statistics, the files written, and the findings that were not written (by case seed). */
    public record Report(FuzzStats stats, List<Path> files, List<String> unwritten) {
        /** 1 when there is any mismatch or raw error. */
        public int exitCode() {
            return stats.findings() > 0 ? 1 : 0;
        }
    }

    private final FuzzOptions options;
    private final PrintStream out;
    private final List<Oracle> oracles = List.of(new DuckDbOracle(), new TlpOracle(), new NoRecOracle());
    private final FuzzStats stats;
    private final FindingWriter writer;
    private final List<Path> files = new ArrayList<>();
    private final List<String> unwritten = new ArrayList<>();
    private final Set<String> fingerprints = new HashSet<>();
    private long caseNumber;

    public Fuzzer(FuzzOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        List<String> names = new ArrayList<>(oracles.stream().map(Oracle::name).toList());
        names.add(LOAD);
        this.stats = new FuzzStats(names);
        this.writer = new FindingWriter(options.executors(), options.timeoutSeconds());
    }

    public Report run() {
        long start = System.currentTimeMillis();
        out.printf("[fuzz] seed %d, executors %s, %s%n", options.seed(), String.join(",", options.executors()),
                options.caseSeed() != null ? "case seed " + options.caseSeed() : options.seconds() + " s");
        if (options.caseSeed() != null) {
            long schemaSeed = Seeds.schemaSeedOf(options.caseSeed());
            runSchema(schemaSeed, (int) (options.caseSeed() - schemaSeed), 1, Long.MAX_VALUE);
        } else {
            long deadline = start + options.seconds() * 1000L;
            long nextProgress = start + PROGRESS_MILLIS;
            for (long schema = 0; System.currentTimeMillis() < deadline; schema++) {
                runSchema(Seeds.schemaSeed(options.seed(), schema), 0, options.queriesPerSchema(), deadline);
                if (System.currentTimeMillis() >= nextProgress) {
                    out.printf("[fuzz] %d s: %s%n", (System.currentTimeMillis() - start) / 1000, stats.progressLine());
                    nextProgress = System.currentTimeMillis() + PROGRESS_MILLIS;
                }
            }
        }
        out.printf("[fuzz] done in %d s, seed %d, executors %s%n", (System.currentTimeMillis() - start) / 1000, options.seed(),
                String.join(",", options.executors()));
        out.print(stats.table());
        out.printf("findings written: %d (to %s)%n", files.size(), options.out().toAbsolutePath());
        files.forEach(f -> out.println("  " + f));
        if (!unwritten.isEmpty()) {
            out.println("findings not minimised (over --max-findings), replay with --case-seed:");
            unwritten.forEach(u -> out.println("  " + u));
        }
        return new Report(stats, files, unwritten);
    }

    /** The dataset of a schema seed. */
    public static Dataset dataset(long schemaSeed) {
        Random random = Seeds.random(schemaSeed);
        return new DataGenerator(random).fill(new SchemaGenerator(random).tables());
    }

    /** Runs queries {@code first .. first+count-1} of a schema, stopping at the deadline. */
    private void runSchema(long schemaSeed, int first, int count, long deadline) {
        Dataset dataset = dataset(schemaSeed);
        try (Engines engines = Engines.load(dataset, options.executors(), options.timeoutSeconds())) {
            for (int q = first; q < first + count && System.currentTimeMillis() < deadline; q++) {
                runCase(engines, dataset, Seeds.caseSeed(schemaSeed, q));
            }
        } catch (Engines.LoadException e) {
            loadFailed(dataset, schemaSeed, e);
        }
    }

    private void runCase(Engines engines, Dataset dataset, long caseSeed) {
        Random random = Seeds.random(caseSeed);
        Oracle oracle = pick(random);
        OracleCase fuzzCase;
        Check check;
        try {
            fuzzCase = oracle.generate(new QueryGenerator(random, dataset), random);
            check = oracle.check(fuzzCase, engines);
        } catch (RuntimeException e) {
            // A bug of the fuzzer itself: counted and shown, the run goes on.
            stats.record(oracle.name(), new Check(Verdict.INVALID, "-", "fuzzer", e.toString(), null, null));
            out.printf("[fuzz] fuzzer error in case seed %d:%n", caseSeed);
            e.printStackTrace(out);
            caseNumber++;
            return;
        }
        stats.record(oracle.name(), check);
        long number = options.caseSeed() != null ? -1 : caseNumber;
        caseNumber++;
        if (check.verdict().isFinding()) {
            found(new Finding(options.seed(), number, caseSeed, oracle.name(), check, dataset, fuzzCase), oracle);
        }
    }

    /** The oracle of a case: DuckDB for most, TLP and NoREC for the rest. */
    private Oracle pick(Random random) {
        int r = random.nextInt(20);
        return oracles.get(r < 12 ? 0 : r < 17 ? 1 : 2);
    }

    private void found(Finding f, Oracle oracle) {
        Check check = f.check();
        out.printf("[fuzz] %s (%s, %s), case seed %d: %s%n", check.verdict().label, f.oracle(), check.executor(), f.caseSeed(),
                abbreviate(check.detail(), 400));
        if (options.caseSeed() == null && files.size() >= options.maxFindings()) {
            unwritten.add(f.caseSeed() + " (" + f.oracle() + ", " + check.verdict().label + ")");
            return;
        }
        Minimizer.Result small;
        try {
            small = Minimizer.forOracle(oracle, check, options.executors(), options.timeoutSeconds(), MINIMIZE_ATTEMPTS,
                    options.minimizeSeconds() * 1000L).minimize(f.dataset(), f.fuzzCase());
        } catch (RuntimeException e) {
            out.printf("[fuzz]   minimising failed (%s); the case is written as found%n", e);
            small = new Minimizer.Result(f.dataset(), f.fuzzCase(), 0);
        }
        Finding minimised = new Finding(f.runSeed(), f.caseNumber(), f.caseSeed(), f.oracle(), check, small.dataset(),
                small.fuzzCase());
        String fingerprint = fingerprint(minimised);
        if (!fingerprints.add(fingerprint)) {
            out.printf("[fuzz]   minimised (%d attempts) to a finding already written%n", small.attempts());
            return;
        }
        write(minimised, small.attempts());
    }

    /** A statement of the dataset failed: on DuckDB a fuzzer bug; on WarpDB (DuckDB took it) a finding unless unsupported. */
    private void loadFailed(Dataset dataset, long schemaSeed, Engines.LoadException e) {
        QueryFailure failure = e.failure();
        Verdict verdict = e.engine().equals("duckdb") ? Verdict.INVALID
                : failure.kind() == QueryFailure.Kind.RAW ? Verdict.RAW_ERROR
                : failure.kind() == QueryFailure.Kind.UNSUPPORTED ? Verdict.UNSUPPORTED : Verdict.MISMATCH;
        String signature = "load:" + verdict + ":" + failure.sqlState();
        Check check = new Check(verdict, options.executors().get(0), signature, e.getMessage(), Outcome.failed(failure), null);
        stats.record(LOAD, check);
        if (verdict.isFinding()) {
            out.printf("[fuzz] %s loading the data of schema seed %d: %s%n", verdict.label, schemaSeed, e.getMessage());
            if (files.size() < options.maxFindings() && fingerprints.add(signature)) {
                write(new Finding(options.seed(), caseNumber, schemaSeed, LOAD, check, dataset, null), 0);
            }
        }
    }

    private void write(Finding f, int attempts) {
        try {
            Path file = writer.write(options.out(), f);
            files.add(file);
            out.printf("[fuzz]   minimised (%d attempts) and written to %s%n", attempts, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the finding to " + options.out(), e);
        }
    }

    /**
     * Findings of the same shape and signature are written once: constants, names and integer
     * widths aside (the same bug, minimised from different queries, tends to come out alike).
     */
    static String fingerprint(Finding f) {
        StringBuilder sb = new StringBuilder(f.oracle()).append('|').append(f.check().signature());
        f.fuzzCase().queries().forEach(q -> sb.append('|').append(q.render(Dialect.WARPDB)));
        return sb.toString().replaceAll("'(?:[^']|'')*'", "?").replaceAll("\\b([adwxtc])\\d+\\b", "$1")
                .replaceAll("\\b\\d+(\\.\\d+)?(E-?\\d+)?\\b", "N").replaceAll("\\b(INTEGER|BIGINT)\\b", "INT");
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }
}
