package io.warpdb.tpch;

import io.warpdb.sql.Database;
import io.warpdb.storage.Table;
import java.util.List;
import java.util.Locale;

/**
 * What the loaded TPC-H tables take, per table and in bytes per scale factor, in WarpDB and in
 * DuckDB: WarpDB's bytes resident on the host ({@link Table#residentBytes()}: an in-memory
 * table's encoded chunks; none for a durable table, whose chunks stay in files until read), its
 * stored bytes ({@link Table#bytes()}: on disk for a durable table, the same chunks in memory for
 * an in-memory one), and what the table added to DuckDB's table storage while loading ({@link
 * DuckDbReference#tableBytes}). Neither engine's caches of decoded data are counted.
 */
public record MemoryReport(double scaleFactor, List<TableBytes> tables) {
    /** One table; {@code duckdb} is -1 when DuckDB's figure is unknown. */
    public record TableBytes(String table, long rows, long warpdbResident, long warpdbStored, long duckdb) {
    }

    public MemoryReport {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be positive, not " + scaleFactor);
        }
        tables = List.copyOf(tables);
    }

    /** The tables' sizes in {@code database} and in {@code duckdb}, which loaded the same data of scale factor {@code scaleFactor}. */
    public static MemoryReport measure(Database database, DuckDbReference duckdb, List<TpchSchema.Table> tables, double scaleFactor) {
        return new MemoryReport(scaleFactor, tables.stream().map(t -> {
            Table table = database.catalog().table(t.name())
                    .orElseThrow(() -> new IllegalStateException("WarpDB holds no table " + t.name()));
            return new TableBytes(t.name(), table.rowCount(), table.residentBytes(), table.bytes(),
                    duckdb.tableBytes(t.name()).orElse(-1));
        }).toList());
    }

    /** The sums over the tables; DuckDB's is -1 when any table's is unknown. */
    public TableBytes total() {
        boolean duckdbKnown = tables.stream().allMatch(t -> t.duckdb() >= 0);
        return new TableBytes("total", tables.stream().mapToLong(TableBytes::rows).sum(),
                tables.stream().mapToLong(TableBytes::warpdbResident).sum(), tables.stream().mapToLong(TableBytes::warpdbStored).sum(),
                duckdbKnown ? tables.stream().mapToLong(TableBytes::duckdb).sum() : -1);
    }

    /** The totals divided by the scale factor, rounded to whole bytes: how the footprint grows with the data. */
    public TableBytes perScaleFactor() {
        TableBytes total = total();
        return new TableBytes("per SF", Math.round(total.rows() / scaleFactor), Math.round(total.warpdbResident() / scaleFactor),
                Math.round(total.warpdbStored() / scaleFactor), total.duckdb() < 0 ? -1 : Math.round(total.duckdb() / scaleFactor));
    }

    /** A header, a line per table, the total and the per-SF line, for the console; sizes in MB (10^6 bytes). */
    public String format() {
        StringBuilder s = new StringBuilder();
        s.append("table sizes after loading (WarpDB host: resident off the heap, page-locked when a GPU is present; stored: encoded, on disk when durable;"
                + " DuckDB: its in-memory table storage)\n");
        s.append(String.format(Locale.ROOT, "%-10s %14s %16s %16s %12s %12s%n", "table", "rows", "warpdb_host_MB",
                "warpdb_stored_MB", "duckdb_MB", "stored/duck"));
        tables.forEach(t -> s.append(line(t)));
        s.append(line(total()));
        return s.append(line(perScaleFactor())).toString();
    }

    private static String line(TableBytes t) {
        boolean duckdbKnown = t.duckdb() >= 0;
        return String.format(Locale.ROOT, "%-10s %,14d %16.1f %16.1f %12s %12s%n", t.table(), t.rows(), t.warpdbResident() / 1e6,
                t.warpdbStored() / 1e6, duckdbKnown ? String.format(Locale.ROOT, "%.1f", t.duckdb() / 1e6) : "unknown",
                duckdbKnown && t.duckdb() > 0 ? String.format(Locale.ROOT, "%.3f", (double) t.warpdbStored() / t.duckdb()) : "-");
    }
}
