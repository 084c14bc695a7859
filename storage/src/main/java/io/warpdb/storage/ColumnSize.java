package io.warpdb.storage;

import java.util.List;

/**
 * How one column of a table is stored, summed over its segments.
 *
 * @param column    the column name
 * @param bytes     encoded bytes, on disk (durable catalog) or in off-heap host memory (in memory)
 * @param encodings the distinct encodings its chunks use, e.g. "dict+rle+bitpack(3)"
 */
public record ColumnSize(String column, long bytes, List<String> encodings) {
    public ColumnSize {
        encodings = List.copyOf(encodings);
    }
}
