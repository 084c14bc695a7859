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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The 99 TPC-DS queries on WarpDB's CPU executor at SF 0.1, every answer checked against DuckDB on
 * the same generated data: all must be equal. (At SF 0.01 q12 divides by a windowed SUM that is 0,
 * where WarpDB raises 22012 as PostgreSQL does and DuckDB gives NULL; SF 0.1 has no such group.)
 */
class TpcdsAnswersTest {
    @Test
    void everyQueryAnswersAsDuckDbAtSf01() {
        TpcdsGenerator data = new TpcdsGenerator(0.1);
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
        assertEquals(99, outcomes.size());
        String failed = outcomes.stream().filter(o -> !o.ok()).map(SuiteRunner.Outcome::format).collect(Collectors.joining("\n"));
        assertTrue(failed.isEmpty(), "TPC-DS queries whose answers differ from DuckDB's:\n" + failed);
    }
}
