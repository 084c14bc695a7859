package io.warpdb.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.tpch.LoadReport;
import io.warpdb.tpch.RowCursor;
import io.warpdb.tpch.TableParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatFilesTest {
    /**
     * store_sales and web_sales (several parts each at SF 0.01) with the returns written from their
     * pass, a dimension with NULLs and dates (customer) and a slowly changing one (item); catalog
     * sales and the large fixed-size tables would only add time.
     */
    private static final List<TpcdsSchema.Table> TABLES = List.of("store_sales", "store_returns", "web_sales", "web_returns", "customer",
            "item").stream().map(TpcdsSchema::table).toList();

    /** Every value read back from the .dat files in 64 KB parts equals the generator's, NULLs included. */
    @Test
    void datFilesReadBackAsGenerated(@TempDir Path dir) {
        TpcdsGenerator generator = new TpcdsGenerator(0.01);
        LoadReport written = generator.writeDat(TABLES, dir, 2);
        assertEquals(TABLES.size(), written.tables().size());
        List<TableParts> generated = generator.parts(TABLES);
        List<TableParts> read = new DatFiles(dir, 64 * 1024).parts(TABLES);
        assertTrue(read.get(0).parts() > 10, "store_sales.dat is read in many parts");
        long nulls = 0;
        for (int t = 0; t < TABLES.size(); t++) {
            String file = DatFiles.fileName(TABLES.get(t));
            long rowsWritten = written.tables().stream().filter(w -> w.table().equals(file)).findFirst().orElseThrow().rows();
            nulls += assertSameRows(generated.get(t), read.get(t), rowsWritten);
        }
        assertTrue(nulls > 1000, "NULLs compared: " + nulls);
    }

    /** Compares the rows in order; returns how many NULLs they hold. */
    private static long assertSameRows(TableParts expected, TableParts actual, long rowsWritten) {
        long rows = 0;
        long nulls = 0;
        try (Rows e = new Rows(expected); Rows a = new Rows(actual)) {
            while (e.next()) {
                assertTrue(a.next(), expected.name() + " has more than " + rows + " rows");
                for (int c = 0; c < expected.schema().size(); c++) {
                    long row = rows;
                    int column = c;
                    Supplier<String> where = () -> expected.name() + " row " + row + " column " + expected.schema().field(column);
                    assertEquals(e.cursor.isNull(c), a.cursor.isNull(c), where);
                    if (e.cursor.isNull(c)) {
                        nulls++;
                    } else {
                        assertEquals(value(e.cursor, expected, c), value(a.cursor, actual, c), where);
                    }
                }
                rows++;
            }
            assertFalse(a.next(), expected.name() + " has only " + rows + " rows");
        }
        assertEquals(rows, rowsWritten, expected.name());
        return nulls;
    }

    private static Object value(RowCursor cursor, TableParts table, int c) {
        return switch (table.schema().type(c).kind()) {
            case DATE -> cursor.getDate(c);
            case VARCHAR -> cursor.getString(c);
            default -> cursor.getLong(c);
        };
    }

    /** The rows of all parts of a table, in order. */
    private static final class Rows implements AutoCloseable {
        private final TableParts table;
        private int part = -1;
        RowCursor cursor;

        Rows(TableParts table) {
            this.table = table;
        }

        boolean next() {
            while (cursor == null || !cursor.next()) {
                if (cursor != null) {
                    cursor.close();
                    cursor = null;
                }
                if (++part == table.parts()) {
                    return false;
                }
                cursor = table.open().apply(part);
            }
            return true;
        }

        @Override
        public void close() {
            if (cursor != null) {
                cursor.close();
            }
        }
    }

    @Test
    void missingFilesAreNamedBeforeAnythingIsRead(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("call_center.dat"), "");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DatFiles(dir).parts(List.of(TpcdsSchema.table("call_center"), TpcdsSchema.table("store_sales"))));
        assertEquals("missing TPC-DS data files: " + dir.resolve("store_sales.dat") + " (write them with: warpdb tpcds gen --sf <SF> --out "
                + dir + ")", e.getMessage());
        Path none = dir.resolve("none");
        assertEquals("no TPC-DS data directory " + none + " (write it with: warpdb tpcds gen --sf <SF> --out " + none + ")",
                assertThrows(IllegalArgumentException.class, () -> new DatFiles(none).parts(TpcdsSchema.tables())).getMessage());
    }
}
