package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class RooflineTableTest {
    /** Lines as EXPLAIN ANALYZE prints them (TPC-H Q1 at SF 10 on the H100, with made-up device bytes). */
    private static final List<String> Q1 = List.of(
            "Sort(keys=[$0 ASC NULLS LAST])  [gpu] rows=4 time=38.6 ms kernel=0.3 ms h2d=0.0 MB d2h=0.0 MB"
                    + " dev_read=0.1 MB dev_write=0.1 MB dev_bw=667 GB/s",
            "  Aggregate(groupBy=[$0, $1])  [gpu] rows=4 time=37.9 ms kernel=13.7 ms dev_read=2400.0 MB dev_write=0.0 MB",
            "    Project(l_returnflag=$4)  [gpu] rows=59142609 time=23.4 ms kernel=22.7 ms dev_read=2400.0 MB"
                    + " dev_write=2400.0 MB dev_bw=211 GB/s",
            "      Filter(condition=LE($6, DATE '1998-09-02'))  [gpu] rows=59142609 time=23.3 ms; fused into the projection above",
            "        Scan(table=lineitem, columns=[l_quantity])  [gpu] rows=59986052 time=0.1 ms");

    @Test
    void aRowSumsThePlanLinesKernelTimeAndDeviceBytes() {
        RooflineTable.Row row = RooflineTable.Row.of("q01", Q1);
        assertEquals(36.7, row.kernelMillis(), 1e-9);
        assertEquals(7200.2, row.deviceMegabytes(), 1e-9);
        assertEquals(7200.2 / 36.7, row.achievedGigabytesPerSecond(), 1e-9);
        assertEquals(2.4000666, row.millisAt(3000), 1e-6, "7.2 GB at 3000 GB/s");
    }

    @Test
    void aPlanWithoutDeviceFiguresCountsNothing() {
        RooflineTable.Row row = RooflineTable.Row.of("q06", List.of("Aggregate()  [cpu] rows=1 time=5.0 ms"));
        assertEquals(0, row.kernelMillis());
        assertEquals(0, row.deviceMegabytes());
        assertEquals(0, row.achievedGigabytesPerSecond());
    }

    @Test
    void theTableHasARowPerQueryATotalAndTheRatioOfKernelTimeToTheBandwidthFloor() {
        List<String> lines = RooflineTable.format(List.of(new RooflineTable.Row("q01", 36.7, 7200.2),
                new RooflineTable.Row("q06", 0, 0)), 3000);
        assertEquals(List.of(
                "Roofline at 3000 GB/s (device bytes estimated per node from the columns it consumed and produced):",
                "query             kernel ms   dev MB r+w       GB/s     at bw ms    ratio",
                "q01                    36.7       7200.2        196         2.40     15.3",
                "q06                     0.0          0.0          0         0.00        -",
                "total                  36.7       7200.2        196         2.40     15.3"), lines);
    }

    @Test
    void plansThatRanOnTheCpuGetNoTable() {
        assertEquals(List.of(), RooflineTable.format(List.of(new RooflineTable.Row("q01", 0, 0)), 3000));
    }

    @Test
    void theBandwidthIsTheOneGiven() {
        List<String> lines = RooflineTable.format(List.of(new RooflineTable.Row("q01", 10, 1000)), 1000);
        assertEquals("Roofline at 1000 GB/s (device bytes estimated per node from the columns it consumed and produced):",
                lines.get(0));
        assertEquals("q01                    10.0       1000.0        100         1.00     10.0", lines.get(2));
    }
}
