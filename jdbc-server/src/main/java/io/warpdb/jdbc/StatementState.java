package io.warpdb.jdbc;

import io.warpdb.sql.PreparedStatement;
import io.warpdb.sql.StatementResult;

/**
 * One statement of a connection: what it prepared (with its kept plan), if it is a prepared
 * statement, and the result it has open. Running it again, or closing it, closes that result.
 */
final class StatementState {
    final int id;
    /** Null for a plain statement, which brings its SQL with each execution. */
    final PreparedStatement prepared;
    private ResultCursor cursor;

    StatementState(int id, PreparedStatement prepared) {
        this.id = id;
        this.prepared = prepared;
    }

    /** The open result; null before the first query ran. */
    ResultCursor cursor() {
        return cursor;
    }

    /** Makes {@code result} the open result, closing the previous one. */
    ResultCursor open(StatementResult result, long maxRows) {
        closeResult();
        cursor = new ResultCursor(result, maxRows);
        return cursor;
    }

    void closeResult() {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
    }
}
