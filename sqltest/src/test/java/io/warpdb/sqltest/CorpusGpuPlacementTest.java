package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The records of the whole corpus (sql/**.test) on the gpu targets, checked without a device:
 * each file's statements run on the CPU, each query is planned, and every node must be one
 * {@link GpuExecutorProvider#planSupport} accepts, so that the gpu targets run it on the GPU,
 * except the features the GPU leaves to the CPU, listed here by reason (types normalized:
 * DECIMALs of more than 18 digits as DECIMAL(wide), string lengths and NOT NULL dropped). A
 * feature the GPU learns leaves this list; one it loses fails the test.
 */
class CorpusGpuPlacementTest {
    private static final Map<String, List<String>> LEFT_TO_THE_CPU = new TreeMap<>(Map.ofEntries(
            // DECIMALs of more than 18 digits (128-bit values, the type of every SUM of a DECIMAL) run on the GPU but as
            // DISTINCT aggregates' arguments; text does not become one, nor one text.
            Map.entry("AggregateNode: COUNT(DISTINCT [$n]) over DECIMAL(wide) (a wide DECIMAL) runs on the CPU", List.of("sql/expr/decimal_wide.test")),
            Map.entry("ProjectNode: CAST between DECIMAL(wide) and VARCHAR runs on the CPU", List.of("sql/expr/decimal_wide.test")),
            Map.entry("ProjectNode: CAST of a string as DECIMAL(wide) runs on the CPU", List.of("sql/expr/decimal_wide.test"))));

    @Test
    void everyNodeOfTheCorpusIsPlacedOnTheGpuButTheListedFeatures() {
        Map<String, TreeSet<String>> refused = new TreeMap<>();
        int windows = 0;
        for (Corpus.TestFile file : Corpus.files("sql/")) {
            try (Database database = Database.inMemory("corpus_gpu_placement"); Session session = database.newSession()) {
                for (SltRecord record : file.parse().records()) {
                    if (record instanceof SltRecord.Statement statement && !statement.expectError()) {
                        execute(session, statement.sql());
                    } else if (record instanceof SltRecord.Query query) {
                        List<PlanNode> nodes = new ArrayList<>();
                        planned(session, query.sql()).ifPresent(p -> collect(p.plan(), nodes));
                        for (PlanNode node : nodes) {
                            windows += node instanceof WindowNode ? 1 : 0;
                            Support support = GpuExecutorProvider.planSupport(node);
                            if (!support.supported()) {
                                String reason = node.getClass().getSimpleName() + ": " + normalized(support.reason());
                                refused.computeIfAbsent(reason, r -> new TreeSet<>()).add(file.name());
                            }
                        }
                    }
                }
            }
        }
        assertTrue(windows > 30, "window nodes planned: " + windows);
        StringBuilder report = new StringBuilder("corpus nodes the GPU executor refuses:");
        refused.forEach((reason, files) -> report.append("\n            Map.entry(\"").append(reason.replace("\"", "\\\""))
                .append("\", List.of(\"").append(String.join("\", \"", files)).append("\")),"));
        System.out.println(report);
        Map<String, List<String>> actual = new TreeMap<>();
        refused.forEach((reason, files) -> actual.put(reason, List.copyOf(files)));
        assertEquals(LEFT_TO_THE_CPU, actual, report.toString());
    }

    /** A refusal's reason with its types' details dropped, so that one feature is one entry. */
    private static String normalized(String reason) {
        StringBuilder out = new StringBuilder();
        java.util.regex.Matcher decimal = java.util.regex.Pattern.compile("DECIMAL\\((\\d+),(\\d+)\\)").matcher(reason);
        while (decimal.find()) {
            boolean wide = Integer.parseInt(decimal.group(1)) > 18;
            decimal.appendReplacement(out, wide ? "DECIMAL(wide)" : "DECIMAL");
        }
        decimal.appendTail(out);
        return out.toString().replaceAll("(VARCHAR|CHAR)\\(\\d+\\)", "$1").replace(" NOT NULL", "")
                .replaceAll("\\$\\d+", "\\$n");
    }

    /** Runs a statement that sets up the file's tables; one that fails on the CPU changes nothing the queries read. */
    private static void execute(Session session, String sql) {
        try (StatementResult ignored = session.execute(sql, List.of())) {
            // only the tables the queries read matter
        } catch (RuntimeException e) {
            // the record expects no error, and the CPU targets check that
        }
    }

    /** The query's plan; empty where planning fails (records that expect an error). */
    private static Optional<QueryPlans.QueryPlan> planned(Session session, String sql) {
        try {
            return QueryPlans.of(session, sql, List.of());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void collect(PlanNode node, List<PlanNode> out) {
        out.add(node);
        node.inputs().forEach(input -> collect(input, out));
    }
}
