package io.warpdb.jdbc;

import io.warpdb.core.batch.Batch;
import io.warpdb.sql.PreparedStatement;
import io.warpdb.sql.StatementResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One statement of a connection: what it prepared (with its kept plan), if it is a prepared
 * statement, and the result it has open: read in Avatica frames through a {@link ResultCursor},
 * or held whole for a Flight SQL stream. Running it again, or closing it, closes that result.
 */
final class StatementState {
    final int id;
    /** Null for a plain statement, which brings its SQL with each execution. */
    final PreparedStatement prepared;
    private ResultCursor cursor;
    private StatementResult held;
    /** The held result's first batch, read ahead so that errors in it fail the execution; null once taken. */
    private Batch first;
    /** The parameter values a Flight SQL client bound ahead of executing; none until it binds. */
    private List<Object> parameters = List.of();
    /** Set by {@link ConnectionState#cancel}: work for the statement fails with SQLSTATE 57014 from then on. */
    volatile boolean cancelled;

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

    /**
     * Keeps {@code result} open for a Flight SQL stream to read, closing the previous one; a
     * query's first batch is read now, so that an error in it fails the execution rather than
     * the stream (the stock Flight SQL JDBC driver reports stream errors as unchecked exceptions).
     */
    void hold(StatementResult result) {
        closeResult();
        held = result;
        if (result.isQuery()) {
            first = result.batches().next();
        }
    }

    /** The held result's first batch, still held (null at the end of the result, or once taken). */
    Batch first() {
        return first;
    }

    /** The held result's first batch (null at the end of the result), once; the caller closes it. */
    Batch takeFirst() {
        Batch batch = first;
        first = null;
        return batch;
    }

    /** The result {@link #hold} kept; null before the first query ran or after it was closed. */
    StatementResult held() {
        return held;
    }

    List<Object> parameters() {
        return parameters;
    }

    void bind(List<Object> values) {
        // Values may be null (SQL NULL), which List.copyOf refuses.
        parameters = Collections.unmodifiableList(new ArrayList<>(values));
    }

    void closeResult() {
        if (cursor != null) {
            cursor.close();
            cursor = null;
        }
        if (first != null) {
            first.close();
            first = null;
        }
        if (held != null) {
            held.close();
            held = null;
        }
    }
}
