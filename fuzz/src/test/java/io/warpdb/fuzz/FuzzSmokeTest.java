package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A short fuzz run on the CPU executor with a fixed seed, part of the default test command: no
 * mismatch and no raw error may come up. Findings are minimised into target/fuzz-findings/smoke
 * (see the printed report). The run is bounded by time, so a faster machine goes further along
 * the seed's sequence; the seed was checked clean well past what a minute reaches here.
 */
class FuzzSmokeTest {
    private static final long SEED = 20_251_126;
    private static final int SECONDS = 60;

    @Test
    void aShortRunFindsNoMismatchAndNoRawError() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        FuzzOptions options = new FuzzOptions(SECONDS, SEED, List.of("cpu"), Path.of("target", "fuzz-findings", "smoke"),
                FuzzOptions.DEFAULT_QUERIES_PER_SCHEMA, null, FuzzOptions.DEFAULT_TIMEOUT_SECONDS, 20, 5);
        Fuzzer.Report report = new Fuzzer(options, out).run();
        String printed = buffer.toString(StandardCharsets.UTF_8);
        System.out.print(printed);
        assertTrue(report.stats().queries() > 100, "too few queries ran:\n" + printed);
        assertEquals(0, report.stats().count(Verdict.MISMATCH), "mismatches:\n" + printed);
        assertEquals(0, report.stats().count(Verdict.RAW_ERROR), "raw errors:\n" + printed);
    }
}
