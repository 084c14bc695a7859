package io.warpdb.tpch;

import io.warpdb.core.batch.Utf8Dictionary;
import java.nio.charset.StandardCharsets;

/**
 * A forward-only cursor over the rows of one part of a benchmark table. Columns are positions in
 * the table's schema; each getter is called only for columns of its kind, on a value that
 * {@link #isNull} did not report NULL, and reads the row of the last {@link #next()} that
 * returned true.
 */
public interface RowCursor extends AutoCloseable {
    /** Moves to the next row; false at the end. */
    boolean next();

    /** Whether the column is NULL in this row; TPC-H has no NULLs. */
    default boolean isNull(int column) {
        return false;
    }

    /** An INTEGER or BIGINT value, or a DECIMAL's unscaled value (cents for DECIMAL(15,2) and DECIMAL(7,2)). */
    long getLong(int column);

    /** A DATE as days since 1970-01-01. */
    int getDate(int column);

    /** A CHAR or VARCHAR value, as generated (CHAR values carry no padding). */
    String getString(int column);

    /**
     * The code of {@link #getString}'s value in {@code dictionary}, added when new; a cursor over
     * text overrides it to add the value's bytes as they lie, without a String per value.
     */
    default int addString(int column, Utf8Dictionary dictionary) {
        byte[] utf8 = getString(column).getBytes(StandardCharsets.UTF_8);
        return dictionary.add(utf8, 0, utf8.length);
    }

    @Override
    void close();
}
