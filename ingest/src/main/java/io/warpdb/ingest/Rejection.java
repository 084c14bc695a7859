package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;

/** A row a load could not take: where and why ({@code file:line:column: expected ...}), and the record as read. */
record Rejection(SqlState state, String message, byte[] record) {
    WarpException exception(String more) {
        return new WarpException(state, message + more);
    }
}
