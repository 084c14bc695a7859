package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The 22 TPC-H queries on WarpDB's CPU executor, every answer checked against DuckDB on the
 * same generated data. The failure message lists each failing query with its error or diff.
 */
class TpchAnswersTest {
    @Test
    void allQueriesAnswerRightAtSf001() {
        runAll(0.01);
    }

    @Test
    void allQueriesAnswerRightAtSf01() {
        runAll(0.1);
    }

    private static void runAll(double scaleFactor) {
        int threads = Runtime.getRuntime().availableProcessors();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<TpchRunner.Outcome> outcomes;
        try (TpchSetup setup = TpchSetup.load(new TpchGenerator(scaleFactor), threads);
                WarpDbTarget warpdb = setup.warpdb("cpu")) {
            out.print(setup.warpdbLoad().format());
            outcomes = new TpchRunner(warpdb, setup.reference()).runAll(TpchQueries.all(), out);
        }
        System.out.print(bytes.toString(StandardCharsets.UTF_8));
        String failures = outcomes.stream().filter(o -> !o.ok()).map(TpchRunner.Outcome::format).collect(Collectors.joining("\n"));
        assertTrue(TpchRunner.allOk(outcomes), "TPC-H SF " + scaleFactor + " queries failing:\n" + failures);
    }
}
