package io.warpdb.tpch;

import io.warpdb.core.types.Schema;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * One table of a benchmark's data: its name, schema, and its rows cut into {@code parts} parts
 * that may be read concurrently, one cursor each ({@code open} takes the 0-based part); reading
 * all parts in order yields the table in row order. {@code file} is the text file the rows are
 * read from ({@link TextTableFile}), empty for generated rows; {@code primaryKey} the columns of
 * the key the table declares, empty for none. What {@link TableLoader} and {@link DuckDbReference} load.
 */
public record TableParts(String name, Schema schema, int parts, IntFunction<RowCursor> open, Optional<Path> file,
        List<String> primaryKey) {
    public TableParts {
        if (parts < 1) {
            throw new IllegalArgumentException(name + " needs at least one part, not " + parts);
        }
    }

    /** Generated rows. */
    public TableParts(String name, Schema schema, int parts, IntFunction<RowCursor> open) {
        this(name, schema, parts, open, Optional.empty(), List.of());
    }

    /** Rows of a text file, no key declared. */
    public TableParts(String name, Schema schema, int parts, IntFunction<RowCursor> open, Path file) {
        this(name, schema, parts, open, Optional.of(file), List.of());
    }

    /** The same table declaring {@code key} as its primary key. */
    public TableParts withPrimaryKey(List<String> key) {
        return new TableParts(name, schema, parts, open, file, List.copyOf(key));
    }
}
