package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** Loaded into a durable database that is then closed and reopened, as after a restart. */
    @Test
    void allQueriesAnswerRightOnADurableDatabaseAfterARestart(@TempDir Path dir) {
        TpchData data = new TpchGenerator(0.01);
        int threads = Runtime.getRuntime().availableProcessors();
        try (Database db = Database.open(dir, StorageOptions.defaults())) {
            TpchLoader.load(db, data, threads);
        }
        check("TPC-H SF 0.01 on a reopened durable database",
                SuiteSetup.open(Database.open(dir, StorageOptions.defaults()), TpchLoader.parts(data, TpchSchema.tables()), threads, data.describe()));
    }

    private static void runAll(double scaleFactor) {
        check("TPC-H SF " + scaleFactor, SuiteSetup.loadTpch(new TpchGenerator(scaleFactor), Runtime.getRuntime().availableProcessors()));
    }

    private static void check(String what, SuiteSetup loaded) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        List<SuiteRunner.Outcome> outcomes;
        try (SuiteSetup setup = loaded; WarpDbTarget warpdb = setup.warpdb("cpu")) {
            if (setup.warpdbLoad() != null) {
                out.print(setup.warpdbLoad().format());
            }
            outcomes = new SuiteRunner(warpdb, setup.reference()).runAll(TpchQueries.all(), out);
        }
        System.out.print(bytes.toString(StandardCharsets.UTF_8));
        String failures = outcomes.stream().filter(o -> !o.ok()).map(SuiteRunner.Outcome::format).collect(Collectors.joining("\n"));
        assertTrue(SuiteRunner.allOk(outcomes), what + ": queries failing:\n" + failures);
    }
}
