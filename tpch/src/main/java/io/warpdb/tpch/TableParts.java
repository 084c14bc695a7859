package io.warpdb.tpch;

import io.warpdb.core.types.Schema;
import java.util.function.IntFunction;

/**
 * One table of a benchmark's data: its name, schema, and its rows cut into {@code parts} parts
 * that may be read concurrently, one cursor each ({@code open} takes the 0-based part); reading
 * all parts in order yields the table in row order. What {@link TableLoader} and
 * {@link DuckDbReference} load.
 */
public record TableParts(String name, Schema schema, int parts, IntFunction<RowCursor> open) {
    public TableParts {
        if (parts < 1) {
            throw new IllegalArgumentException(name + " needs at least one part, not " + parts);
        }
    }

    /** TPC-H table {@code table} of {@code data}. */
    static TableParts of(TpchData data, TpchSchema.Table table) {
        return new TableParts(table.name(), table.schema(), data.parts(table), part -> data.open(table, part));
    }
}
