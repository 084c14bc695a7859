package io.warpdb.tpch;

import java.util.List;
import java.util.Locale;

/** Rows and time per table of a load (or of writing files), and the wall time of the whole. */
public record LoadReport(String target, List<TableLoad> tables, long nanos) {
    public record TableLoad(String table, long rows, long nanos) {
    }

    public LoadReport {
        tables = List.copyOf(tables);
    }

    public long rows() {
        return tables.stream().mapToLong(TableLoad::rows).sum();
    }

    public double seconds() {
        return nanos / 1e9;
    }

    /** One line per table and a total line, for the console. */
    public String format() {
        StringBuilder s = new StringBuilder();
        for (TableLoad t : tables) {
            s.append(String.format(Locale.ROOT, "%-10s %,12d rows %10.1f ms%n", t.table(), t.rows(), t.nanos() / 1e6));
        }
        s.append(String.format(Locale.ROOT, "%-10s %,12d rows %10.1f ms  (%s, %,.0f rows/s)%n", "total", rows(), nanos / 1e6,
                target, rows() / Math.max(seconds(), 1e-9)));
        return s.toString();
    }
}
