package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;

/**
 * A value that does not fit its column; the reader that found it adds where it is. Thrown once
 * per bad row, so it carries no stack trace.
 */
public final class BadValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final SqlState state;

    /** {@code expected} completes "expected ...", e.g. "a DATE (yyyy-mm-dd)". */
    BadValueException(SqlState state, String expected) {
        super(expected, null, false, false);
        this.state = state;
    }

    public SqlState state() {
        return state;
    }

    public String expected() {
        return getMessage();
    }
}
