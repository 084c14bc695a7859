package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner, the benchmark and the chart over stand-in databases. */
class SuiteRunnerTest {
    private static final TpchQuery Q1 = TpchQueries.get(1);
    private static final TpchQuery Q6 = TpchQueries.get(6);
    private static final ResultTable Q1_ANSWER = new ResultTable(List.of("l_returnflag", "l_linestatus", "n"),
            List.of(List.of("A", "F", 1), List.of("N", "O", 2)));
    private static final ResultTable Q6_ANSWER = new ResultTable(List.of("revenue"), List.of(List.of(12.5)));

    /** A database that answers from a map, or fails for queries not in it. */
    private record Fake(String name, Map<String, Function<String, ResultTable>> answers) implements QueryTarget {
        @Override
        public ResultTable query(String sql) {
            Function<String, ResultTable> answer = answers.get(sql);
            if (answer == null) {
                throw new IllegalStateException("no such table: lineitem");
            }
            return answer.apply(sql);
        }
    }

    private static final Fake REFERENCE = new Fake("Reference", Map.of(Q1.sql(), sql -> Q1_ANSWER, Q6.sql(), sql -> Q6_ANSWER));

    @Test
    void runPrintsOneLinePerQueryAndFailsOnWrongOrMissingAnswers() {
        ResultTable reversed = new ResultTable(Q1_ANSWER.columns(), List.of(Q1_ANSWER.rows().get(1), Q1_ANSWER.rows().get(0)));
        Fake warpdb = new Fake("Fake", Map.of(Q1.sql(), sql -> reversed));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<SuiteRunner.Outcome> outcomes = new SuiteRunner(warpdb, REFERENCE).runAll(List.of(Q1, Q6),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(4, lines.length);
        assertTrue(lines[1].matches("q01 +[0-9.]+ ms +2 rows  FAIL  row 1 is out of order or differs: column l_returnflag .*"), lines[1]);
        assertTrue(lines[2].matches("q06 +[0-9.]+ ms +- rows  FAIL  error: java.lang.IllegalStateException: no such table: lineitem"),
                lines[2]);
        assertTrue(lines[3].startsWith("0 of 2 OK, 2 FAIL"), lines[3]);
        assertFalse(SuiteRunner.allOk(outcomes));

        List<SuiteRunner.Outcome> good = new SuiteRunner(REFERENCE, REFERENCE).runAll(List.of(Q1, Q6),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertTrue(SuiteRunner.allOk(good));
        assertEquals(2, good.get(0).rows());
    }

    @Test
    void benchReportsMediansRatiosAndGeomeanAndDrawsAChart(@TempDir Path dir) throws Exception {
        // Sleeps long enough that a loaded machine's scheduling delays (several ms) cannot turn the ratios around.
        Fake slow = new Fake("Slow", Map.of(Q1.sql(), sql -> sleep(Q1_ANSWER, 80), Q6.sql(), sql -> sleep(Q6_ANSWER, 8)));
        Fake fast = new Fake("Fast", Map.of(Q1.sql(), sql -> sleep(Q1_ANSWER, 8), Q6.sql(), sql -> sleep(Q6_ANSWER, 8)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SuiteBench.Report report = new SuiteBench(Map.of("warpdb", slow), fast, 1, 3).run("TPC-H SF 0 test", List.of(Q1, Q6),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals("TPC-H SF 0 test", lines[0]);
        assertTrue(lines[1].startsWith("query"), lines[1]);
        assertTrue(lines[2].startsWith("q01") && lines[2].endsWith("OK"), lines[2]);
        assertTrue(lines[lines.length - 1].matches("geomean ratio [0-9]+\\.[0-9]{3}"), lines[lines.length - 1]);
        assertTrue(report.timings().get(0).ratio() > 2, "80 ms against 8 ms: " + report.timings().get(0));
        assertTrue(report.geomeanRatio() > 1.5 && report.geomeanRatio() < 12, "about sqrt(10 * 1): " + report.geomeanRatio());

        Path png = dir.resolve("bench.png");
        BenchChart.write(report, png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() > 100 && image.getHeight() > 400);
    }

    @Test
    void benchLeavesFailedQueriesOutOfTheGeomean() {
        Fake broken = new Fake("Broken", Map.of(Q1.sql(), sql -> Q1_ANSWER));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SuiteBench.Report report = new SuiteBench(Map.of("warpdb", broken), REFERENCE, 1, 1).run("t", List.of(Q1, Q6),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertTrue(report.timings().get(0).counts());
        assertFalse(report.timings().get(1).counts());
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("1 failed query is left out of the geometric mean"));
    }

    private static ResultTable sleep(ResultTable answer, long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return answer;
    }
}
