package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The host-to-device table printed after a gpu-cold benchmark. */
class TransferReportTest {
    private static final TransferReport REPORT = new TransferReport("gpu-cold", List.of(
            new TransferReport.QueryTransfer("q01", 500_000_000, 2_000_000_000),
            new TransferReport.QueryTransfer("q06", 100_000_000, 400_000_000)));

    @Test
    void totalSumsTheQueries() {
        assertEquals(new TransferReport.QueryTransfer("total", 600_000_000, 2_400_000_000L), REPORT.total());
        assertEquals(0.25, REPORT.total().ratio(), 1e-12);
    }

    @Test
    void ratioIsNotANumberWithoutScannedColumns() {
        assertTrue(Double.isNaN(new TransferReport.QueryTransfer("q99", 10, 0).ratio()));
    }

    @Test
    void formatsALinePerQueryAndTheTotal() {
        String expected = """
                host-to-device copies per query, last run on gpu-cold (decoded_MB: the scanned columns decoded, which copying decoded columns would move)
                query      copied_MB     decoded_MB     ratio
                q01            500.0         2000.0     0.250
                q06            100.0          400.0     0.250
                total          600.0         2400.0     0.250
                """;
        assertEquals(expected, REPORT.format());
    }
}
