package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB's copy of the data in a file: loaded where the file lacks a table (or holds it empty), kept otherwise. */
class DuckDbReferenceTest {
    @Test
    void aFileLoadsOnlyTheTablesItLacks(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tpch.duckdb");
        TpchGenerator data = new TpchGenerator(0.01);
        List<TableParts> tables = TpchLoader.parts(data, List.of(TpchSchema.table("nation"), TpchSchema.table("region")));
        try (DuckDbReference duckdb = DuckDbReference.open(file)) {
            LoadReport first = duckdb.loadMissing(tables.subList(0, 1), 2, data.describe());
            assertEquals(List.of("nation"), first.tables().stream().map(LoadReport.TableLoad::table).toList());
            try (Statement s = duckdb.connection().createStatement()) {
                s.execute(DuckDbReference.createTable("region", TpchSchema.table("region").schema()));
            }
        }
        try (DuckDbReference duckdb = DuckDbReference.open(file)) {
            // nation kept, the empty region loaded
            LoadReport second = duckdb.loadMissing(tables, 2, data.describe());
            assertEquals(List.of("region"), second.tables().stream().map(LoadReport.TableLoad::table).toList());
            assertNull(duckdb.loadMissing(tables, 2, data.describe()));
            try (Statement s = duckdb.connection().createStatement();
                    ResultSet rows = s.executeQuery("SELECT (SELECT COUNT(*) FROM nation), (SELECT COUNT(*) FROM region)")) {
                rows.next();
                assertEquals(25, rows.getLong(1));
                assertEquals(5, rows.getLong(2));
            }
        }
    }
}
