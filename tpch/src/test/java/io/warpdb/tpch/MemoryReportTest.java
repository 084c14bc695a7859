package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Table sizes: the arithmetic, the console format, and the figures of a real load into WarpDB and DuckDB. */
class MemoryReportTest {
    private static final MemoryReport REPORT = new MemoryReport(0.5, List.of(
            new MemoryReport.TableBytes("lineitem", 3_000_000, 100_000_000, 100_000_000, 400_000_000),
            new MemoryReport.TableBytes("orders", 750_000, 20_000_000, 20_000_000, 100_000_000)));

    @Test
    void totalsSumTheTables() {
        assertEquals(new MemoryReport.TableBytes("total", 3_750_000, 120_000_000, 120_000_000, 500_000_000), REPORT.total());
    }

    @Test
    void perScaleFactorDividesTheTotalsByIt() {
        assertEquals(new MemoryReport.TableBytes("per SF", 7_500_000, 240_000_000, 240_000_000, 1_000_000_000),
                REPORT.perScaleFactor());
        MemoryReport sf3 = new MemoryReport(3, List.of(new MemoryReport.TableBytes("region", 10, 100, 200, 301)));
        assertEquals(new MemoryReport.TableBytes("per SF", 3, 33, 67, 100), sf3.perScaleFactor(), "rounded to whole bytes");
    }

    @Test
    void formatsMegabytesAndTheStoredToDuckDbRatio() {
        String expected = """
                table sizes after loading (WarpDB host: resident off the heap, page-locked when a GPU is present; stored: encoded, on disk when durable; DuckDB: its in-memory table storage)
                table                rows   warpdb_host_MB warpdb_stored_MB    duckdb_MB  stored/duck
                lineitem        3,000,000            100.0            100.0        400.0        0.250
                orders            750,000             20.0             20.0        100.0        0.200
                total           3,750,000            120.0            120.0        500.0        0.240
                per SF          7,500,000            240.0            240.0       1000.0        0.240
                """;
        assertEquals(expected, REPORT.format());
    }

    @Test
    void anUnknownDuckDbFigureLeavesItsTotalUnknown() {
        MemoryReport durable = new MemoryReport(1, List.of(new MemoryReport.TableBytes("nation", 25, 0, 2_000, -1),
                new MemoryReport.TableBytes("region", 5, 0, 1_000, 3_000)));
        assertEquals(-1, durable.total().duckdb());
        assertEquals(-1, durable.perScaleFactor().duckdb());
        String lines = durable.format();
        assertTrue(lines.contains("nation                 25              0.0              0.0      unknown            -"), lines);
        assertTrue(lines.contains("total                  30              0.0              0.0      unknown            -"), lines);
    }

    @Test
    void refusesAScaleFactorThatIsNotPositive() {
        assertThrows(IllegalArgumentException.class, () -> new MemoryReport(0, List.of()));
    }

    @Test
    void measuresBothEnginesAfterALoad() {
        TpchGenerator data = new TpchGenerator(0.01);
        List<TpchSchema.Table> tables = List.of(TpchSchema.table("orders"), TpchSchema.table("nation"));
        try (Database database = Database.inMemory("memory-report-test"); DuckDbReference duckdb = DuckDbReference.open()) {
            TpchLoader.loadMissing(database, data, 2, tables);
            duckdb.load(data, 2, tables);
            MemoryReport report = MemoryReport.measure(database, duckdb, tables, 0.01);
            MemoryReport.TableBytes orders = report.tables().get(0);
            assertEquals("orders", orders.table());
            assertEquals(15_000, orders.rows());
            assertTrue(orders.warpdbResident() > 0, "an in-memory table's chunks are resident on the host");
            assertEquals(orders.warpdbStored(), orders.warpdbResident(), "in memory, stored is resident");
            // 15,000 rows of nine columns take more than 8 bytes a row in either engine.
            assertTrue(orders.warpdbStored() > 15_000 * 8, "WarpDB: " + orders.warpdbStored());
            assertTrue(orders.duckdb() > 15_000 * 8, "DuckDB: " + orders.duckdb());
            assertEquals(25, report.tables().get(1).rows());
        }
    }
}
