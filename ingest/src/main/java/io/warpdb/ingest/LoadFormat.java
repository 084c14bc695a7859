package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.nio.file.Path;
import java.util.Locale;

/** The file formats a load reads. */
public enum LoadFormat {
    CSV, PARQUET, ARROW;

    /** The format named in FORMAT / --format: csv (also text, tbl), parquet, arrow (also ipc, feather). */
    public static LoadFormat named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "csv", "text", "tbl" -> CSV;
            case "parquet" -> PARQUET;
            case "arrow", "ipc", "feather" -> ARROW;
            default -> throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                    "unknown format '" + name + "'; use csv, parquet or arrow");
        };
    }

    /** The format a file's name says: .parquet, .arrow/.arrows/.ipc/.feather, else CSV (also when gzipped). */
    public static LoadFormat of(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".parquet")) {
            return PARQUET;
        }
        if (name.endsWith(".arrow") || name.endsWith(".arrows") || name.endsWith(".ipc") || name.endsWith(".feather")) {
            return ARROW;
        }
        return CSV;
    }
}
