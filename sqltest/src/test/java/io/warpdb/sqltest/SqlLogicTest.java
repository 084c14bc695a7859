package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The SQL corpus: one dynamic test per {@code .test} file per target. Switches (system
 * properties, also given to Maven as -D...): {@code sqltest.targets} (default {@code cpu,cpu-durable,gpu,gpu-durable,flight,cluster,cluster-ucx};
 * {@code cluster-ucx-two-level} runs the corpus over the two-level shuffle too, left out of the default for the test command's time;
 * {@code duckdb} cross-checks the expectations on DuckDB), {@code sqltest.filter} (comma-separated
 * substrings of file names), {@code sqltest.pending=true} (also run sql/pending/**),
 * {@code sqltest.timeout} (seconds per file, default 300). Each cluster target runs in a nested class of its own, beside
 * the other targets.
 */
@Execution(value = ExecutionMode.CONCURRENT, reason = "waits on node processes more than it computes: beside the other cluster tests")
class SqlLogicTest {

    private static String property(String name, String fallback) {
        String v = System.getProperty(name);
        return v == null || v.isBlank() || v.startsWith("${") ? fallback : v.strip();
    }

    /** The corpus on every target asked for but the clusters, which run beside it in the nested classes below. */
    @Execution(value = ExecutionMode.SAME_THREAD, reason = "one file at a time: these targets compute rather than wait")
    @TestFactory
    Stream<DynamicNode> corpus() {
        return corpus(name -> !Target.isCluster(name));
    }

    /**
     * One cluster target: its files one at a time (they share the cluster's database), beside the other targets' and the
     * other cluster tests, since a cluster waits on its node processes more than it computes.
     */
    @Execution(value = ExecutionMode.CONCURRENT, reason = "waits on node processes more than it computes: beside the other targets")
    abstract class ClusterTarget {
        abstract String target();

        @Execution(value = ExecutionMode.SAME_THREAD, reason = "one file at a time: a cluster target's files share its database")
        @TestFactory
        Stream<DynamicNode> corpus() {
            return SqlLogicTest.corpus(target()::equals);
        }
    }

    @Nested
    class OverFlight extends ClusterTarget {
        @Override
        String target() {
            return "cluster";
        }
    }

    @Nested
    class OverUcx extends ClusterTarget {
        @Override
        String target() {
            return "cluster-ucx";
        }
    }

    @Nested
    class OverUcxTwoLevel extends ClusterTarget {
        @Override
        String target() {
            return "cluster-ucx-two-level";
        }
    }

    /** A container per target asked for ({@code sqltest.targets}) that {@code which} takes, with a test per file. */
    private static Stream<DynamicNode> corpus(Predicate<String> which) {
        List<Target> targets = Arrays.stream(property("sqltest.targets", "cpu,cpu-durable,gpu,gpu-durable,flight,cluster,cluster-ucx").split(","))
                .map(String::strip).filter(s -> !s.isEmpty()).map(Target::new).filter(t -> which.test(t.name())).toList();
        if (targets.isEmpty()) {
            return Stream.empty();
        }
        List<Corpus.TestFile> files = Corpus.files(property("sqltest.filter", ""));
        boolean runPending = Boolean.parseBoolean(property("sqltest.pending", "false"));
        int timeout = Integer.parseInt(property("sqltest.timeout", "300"));
        if (files.isEmpty()) {
            fail("no .test file matches sqltest.filter=" + property("sqltest.filter", ""));
        }
        return targets.stream().map(t -> DynamicContainer.dynamicContainer(t.name(),
                files.stream().map(f -> DynamicTest.dynamicTest(t.name() + ": " + f.name(), f.path().toUri(),
                        () -> runFile(t, f, runPending, timeout)))));
    }

    private static void runFile(Target target, Corpus.TestFile file, boolean runPending, int timeout) {
        if (file.pending() && !runPending) {
            String reason = "pending (known engine bug, skipped; run with -Dsqltest.pending=true): " + file.name()
                    + " - " + file.headerComment();
            System.out.println("[sqltest] SKIPPED " + target.name() + " " + reason);
            Assumptions.abort(reason);
        }
        String unavailable = target.unavailableReason();
        if (unavailable != null) {
            System.out.println("[sqltest] SKIPPED " + target.name() + " " + file.name() + ": " + unavailable);
            Assumptions.abort(unavailable);
        }
        SltScript script = file.parse();
        long start = System.nanoTime();
        SltRunner.Report report = assertTimeoutPreemptively(Duration.ofSeconds(timeout), () -> {
            return SltRunner.run(script, target.database(file.name()), target.options(timeout));
        }, () -> target.name() + " " + file.name() + " did not finish within " + timeout + " s (sqltest.timeout)");
        System.out.println("[sqltest] " + report.summary() + " (" + (System.nanoTime() - start) / 1_000_000 + " ms)");
        String failures = report.failureMessage();
        if (failures != null) {
            fail(failures);
        }
    }
}
