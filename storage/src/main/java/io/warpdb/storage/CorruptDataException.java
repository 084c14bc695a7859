package io.warpdb.storage;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.nio.file.Path;

/**
 * A stored file that fails its checks (checksum, length, format): reported instead of an answer
 * that might be wrong. SQLSTATE XX000.
 */
public final class CorruptDataException extends WarpException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file  the damaged file
     * @param owner what it belongs to, e.g. {@code table ORDERS} or {@code the catalog manifest}
     */
    CorruptDataException(Path file, String owner, String detail, Throwable cause) {
        super(SqlState.INTERNAL_ERROR, "corrupt data file " + file + " of " + owner + ": " + detail, cause);
    }

    static String ofTable(String table) {
        return "table " + table;
    }
}
