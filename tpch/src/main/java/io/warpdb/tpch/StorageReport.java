package io.warpdb.tpch;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.sql.Database;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.ColumnSize;
import io.warpdb.storage.StorageOptions;
import io.warpdb.storage.Table;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * Prints, as Markdown, how a durable TPC-H database stores lineitem and orders: per column the
 * encodings chosen, the bytes on disk and the ratio against plain Arrow (fixed-width values;
 * strings as a VarChar vector: 4-byte offsets plus the UTF-8 bytes), then the whole database
 * next to a DuckDB database file holding the same data.
 *
 * <p>Run by {@code warpdb tpch storage}; the data directory must hold the loaded tables
 * ({@code warpdb tpch load}).
 */
public final class StorageReport {
    private StorageReport() {
    }

    /** Writes the report on the database in {@code dir}; DuckDB's file goes to {@code scratch}. */
    public static void write(Path dir, double scaleFactor, Path scratch, PrintStream out) throws IOException, SQLException {
        Files.createDirectories(scratch);
        try (Database db = Database.open(dir, StorageOptions.defaults())) {
            out.println("| table | column | type | plain Arrow bytes | on disk | ratio | encodings |");
            out.println("|---|---|---|---:|---:|---:|---|");
            for (String name : List.of("lineitem", "orders")) {
                Table table = db.catalog().table(name).orElseThrow();
                List<ColumnSize> sizes = table.columnSizes();
                for (int c = 0; c < sizes.size(); c++) {
                    Field field = table.schema().field(c);
                    long plain = plainArrowBytes(db, name, field, table.rowCount());
                    ColumnSize size = sizes.get(c);
                    out.printf(Locale.ROOT, "| %s | %s | %s | %,d | %,d | %.2f | %s |%n", name, size.column(),
                            field.type().sqlName(), plain, size.bytes(), (double) plain / size.bytes(),
                            String.join(", ", size.encodings()));
                }
            }
        }
        long warpdb = directoryBytes(dir);
        Path duckFile = scratch.resolve("tpch.duckdb");
        Files.deleteIfExists(duckFile);
        try (DuckDbReference duck = DuckDbReference.open(duckFile)) {
            duck.load(new TpchGenerator(scaleFactor), Runtime.getRuntime().availableProcessors());
            try (Statement st = duck.connection().createStatement()) {
                st.execute("CHECKPOINT");
            }
        }
        long duckdb = Files.size(duckFile);
        out.printf(Locale.ROOT, "%nWarpDB data directory: %,d bytes; DuckDB database file: %,d bytes (WarpDB/DuckDB %.2f)%n",
                warpdb, duckdb, (double) warpdb / duckdb);
    }

    /** Rows times the value width; for strings the offsets plus the UTF-8 bytes of every value. */
    private static long plainArrowBytes(Database db, String table, Field field, long rows) {
        DataType type = field.type();
        return switch (type.kind()) {
            case BOOLEAN -> (rows + 7) / 8;
            case INTEGER, DATE -> 4 * rows;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL, DOUBLE -> (type.isWideDecimal() ? 16 : 8) * rows;
            case VARCHAR, CHAR -> 4 * (rows + 1) + stringBytes(db, table, field.name());
        };
    }

    private static long stringBytes(Database db, String table, String column) {
        // TPC-H text is ASCII, so characters are bytes.
        try (StatementResult r = db.newSession().execute("SELECT SUM(CHAR_LENGTH(" + column + ")) FROM " + table, List.of());
                var batch = r.batches().next()) {
            return ((Number) batch.getObject(0, 0)).longValue();
        }
    }

    private static long directoryBytes(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
