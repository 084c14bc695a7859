package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.sql.PrimaryKeys;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generation and loading at SF 0.01: spec row counts, and WarpDB holding exactly DuckDB's rows. */
class TpchLoaderTest {
    private static final TpchGenerator SF_001 = new TpchGenerator(0.01);
    private static final Map<String, Long> ROWS_AT_SF_001 = Map.of("lineitem", 60_175L, "orders", 15_000L, "customer", 1_500L,
            "part", 2_000L, "partsupp", 8_000L, "supplier", 100L, "nation", 25L, "region", 5L);

    private static Database database;
    private static DuckDbReference duckdb;
    private static LoadReport load;

    @BeforeAll
    static void load() {
        database = Database.inMemory("loader-test");
        load = TpchLoader.load(database, SF_001, 4);
        duckdb = DuckDbReference.open();
        duckdb.load(SF_001, 4);
    }

    @AfterAll
    static void close() {
        duckdb.close();
        database.close(); // fails on leaked Arrow memory
    }

    @Test
    void rowCountsMatchTheSpec() {
        for (TpchSchema.Table table : TpchSchema.tables()) {
            long expected = ROWS_AT_SF_001.get(table.name());
            assertEquals(expected, database.catalog().table(table.name()).orElseThrow().rowCount(), table.name());
            assertEquals(expected, load.tables().stream().filter(t -> t.table().equals(table.name())).findFirst().orElseThrow().rows());
            assertEquals(List.of(expected), duckdb.query("select count(*) from " + table.name()).rows().get(0).stream()
                    .map(v -> ((Number) v).longValue()).toList(), table.name());
        }
        assertEquals(86_805, load.rows());
    }

    @Test
    void firstLineitemHasTheValuesDbgenPrints() {
        // 1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|
        List<Object> expected = Arrays.asList(1L, 1552, 93, 1, new BigDecimal("17.00"), new BigDecimal("24710.35"),
                new BigDecimal("0.04"), new BigDecimal("0.02"), "N", "O", LocalDate.parse("1996-03-13"), LocalDate.parse("1996-02-12"),
                LocalDate.parse("1996-03-22"), "DELIVER IN PERSON", "TRUCK", "egular courts above the");
        ResultTable stored = StoredRows.read(database, "lineitem");
        ResultTable one = new ResultTable(stored.columns(), List.of(expected));
        assertOk(AnswerChecker.check(one, new ResultTable(stored.columns(), List.of(stored.rows().get(0))), List.of()));
        assertOk(AnswerChecker.check(one, duckdb.query("select * from lineitem where l_orderkey = 1 and l_linenumber = 1"), List.of()));
    }

    @Test
    void everyTableHoldsTheSameRowsAsDuckDb() {
        for (TpchSchema.Table table : TpchSchema.tables()) {
            assertOk(AnswerChecker.check(duckdb.query("select * from " + table.name()), StoredRows.read(database, table.name()),
                    List.of()));
        }
    }

    @Test
    void tablesAreStoredInGeneratorOrder() {
        List<List<Object>> orders = StoredRows.read(database, "orders").rows();
        for (int r = 1; r < orders.size(); r++) {
            assertTrue((Long) orders.get(r - 1).get(0) < (Long) orders.get(r).get(0), "o_orderkey ascending at row " + r);
        }
    }

    @Test
    void tblFilesRoundTripThroughSmallParts(@TempDir Path dir) throws Exception {
        LoadReport written = TblFiles.write(SF_001, dir, 3);
        assertEquals(86_805, written.rows());
        assertTrue(TblFiles.present(dir));
        assertTrue(Files.readString(TblFiles.file(dir, TpchSchema.REGION)).startsWith("0|AFRICA|lar deposits."));
        // 64 KB parts: lineitem.tbl is read as ~115 parts whose boundaries fall inside lines.
        TblFiles files = new TblFiles(dir, 64 * 1024);
        assertTrue(files.parts(TpchSchema.LINEITEM) > 100);
        try (Database fromFiles = Database.inMemory("from-files")) {
            TpchLoader.load(fromFiles, files, 4);
            for (TpchSchema.Table table : TpchSchema.tables()) {
                ResultTable generated = StoredRows.read(database, table.name());
                ResultTable read = StoredRows.read(fromFiles, table.name());
                // Same rows in the same order: compare in order on every column.
                assertOk(AnswerChecker.check(generated, read, generated.columns()));
            }
            assertEquals(List.of("l_orderkey", "l_linenumber"), PrimaryKeys.of(fromFiles.catalog().properties(), "lineitem"));
            TpchLoader.drop(fromFiles);
            for (TpchSchema.Table table : TpchSchema.tables()) {
                assertEquals(List.of(), PrimaryKeys.of(fromFiles.catalog().properties(), table.name()), "dropped with its table");
            }
        }
    }

    @Test
    void malformedFileNamesTheLine(@TempDir Path dir) throws Exception {
        TblFiles.write(SF_001, dir, 2);
        Files.writeString(TblFiles.file(dir, TpchSchema.REGION), "0|AFRICA|x|\n1|AMERICA|\n");
        try (Database target = Database.inMemory("bad-files")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TpchLoader.load(target, new TblFiles(dir), 2));
            assertTrue(e.getMessage().contains("region.tbl: the line at byte 12 has 2 values, expected 3"), e.getMessage());
            assertEquals(List.of(), target.catalog().tables(), "a failed load drops the tables it created");
        }
    }

    @Test
    void failingPartLeavesNoTablesAndNoMemory() {
        TpchData failing = new TpchData() {
            @Override
            public int parts(TpchSchema.Table table) {
                return SF_001.parts(table) + 8;
            }

            @Override
            public RowCursor open(TpchSchema.Table table, int part) {
                if (table == TpchSchema.ORDERS && part == 5) {
                    throw new IllegalStateException("part 5 is broken");
                }
                return part < SF_001.parts(table) ? SF_001.open(table, part) : SF_001.open(table, 0);
            }

            @Override
            public String describe() {
                return "failing";
            }
        };
        try (Database target = Database.inMemory("failing")) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> TpchLoader.load(target, failing, 3));
            assertEquals("part 5 is broken", e.getMessage());
            assertEquals(List.of(), target.catalog().tables());
        }
    }

    @Test
    void tablesLoadAtTheSameTime() {
        // orders' first part can only be read once lineitem's last part is being read: loaded one
        // table after the other, the load would wait for the latch until it gives up
        CountDownLatch lineitemReading = new CountDownLatch(1);
        TpchData overlapping = new TpchData() {
            @Override
            public int parts(TpchSchema.Table table) {
                return SF_001.parts(table);
            }

            @Override
            public RowCursor open(TpchSchema.Table table, int part) {
                if (table == TpchSchema.LINEITEM) {
                    lineitemReading.countDown();
                    if (part == SF_001.parts(table) - 1) {
                        awaitOrElseFail(ordersRead, "orders was not loaded beside lineitem");
                    }
                } else if (table == TpchSchema.ORDERS && part == 0) {
                    awaitOrElseFail(lineitemReading, "lineitem never began");
                    ordersRead.countDown();
                }
                return SF_001.open(table, part);
            }

            private final CountDownLatch ordersRead = new CountDownLatch(1);

            @Override
            public String describe() {
                return "overlapping";
            }
        };
        try (Database target = Database.inMemory("overlapping")) {
            LoadReport report = TpchLoader.load(target, overlapping, 2);
            assertEquals(List.of("lineitem", "orders", "partsupp", "part", "customer", "supplier", "nation", "region"),
                    report.tables().stream().map(LoadReport.TableLoad::table).toList(), "reported in the benchmark's order");
            for (LoadReport.TableLoad table : report.tables()) {
                assertEquals(ROWS_AT_SF_001.get(table.table()), table.rows(), table.table());
            }
        }
    }

    private static void awaitOrElseFail(CountDownLatch latch, String message) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(message);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertOk(AnswerChecker.Verdict verdict) {
        assertTrue(verdict.ok(), verdict.difference());
    }
}
