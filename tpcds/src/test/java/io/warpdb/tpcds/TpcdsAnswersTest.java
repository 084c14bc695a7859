package io.warpdb.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.tpch.SuiteRunner;
import io.warpdb.tpch.SuiteSetup;
import io.warpdb.tpch.WarpDbTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The 99 TPC-DS queries on WarpDB's CPU executor at SF 0.01, every answer checked against DuckDB
 * on the same generated data. Every query passes except those in {@link #FAILING}, which lists
 * what each still lacks: when a feature lands, remove the queries it fixes (the test fails,
 * naming them, while they are listed but pass), and a query that regresses fails the test.
 */
class TpcdsAnswersTest {
    /** The queries that fail today, and why. */
    static final Map<Integer, String> FAILING = Map.of(
            12, "a division by a windowed SUM that is 0: WarpDB raises 22012 as PostgreSQL does, DuckDB gives NULL");

    @Test
    void everyQueryButTheKnownFailuresAnswersRightAtSf001() {
        TpcdsGenerator data = new TpcdsGenerator(0.01);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<SuiteRunner.Outcome> outcomes;
        try (SuiteSetup setup = SuiteSetup.open(Database.inMemory("tpcds-test"), data.parts(TpcdsSchema.tables()),
                Runtime.getRuntime().availableProcessors(), data.describe());
                WarpDbTarget warpdb = setup.warpdb("cpu")) {
            out.print(setup.warpdbLoad().format());
            out.print(setup.referenceLoad().format());
            outcomes = new SuiteRunner(warpdb, setup.reference()).runAll(TpcdsQueries.all(), out);
        }
        System.out.print(bytes.toString(StandardCharsets.UTF_8));
        String regressed = outcomes.stream().filter(o -> !o.ok() && !FAILING.containsKey(number(o)))
                .map(SuiteRunner.Outcome::format).collect(Collectors.joining("\n"));
        assertTrue(regressed.isEmpty(), "TPC-DS queries failing that passed before:\n" + regressed);
        Map<Integer, String> fixed = new TreeMap<>();
        outcomes.stream().filter(o -> o.ok() && FAILING.containsKey(number(o))).forEach(o -> fixed.put(number(o), FAILING.get(number(o))));
        assertEquals(Map.of(), fixed, "TPC-DS queries that pass now: remove them from TpcdsAnswersTest.FAILING");
    }

    private static int number(SuiteRunner.Outcome outcome) {
        return ((TpcdsQuery) outcome.query()).number();
    }
}
