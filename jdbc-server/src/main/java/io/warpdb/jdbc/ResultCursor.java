package io.warpdb.jdbc;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.StatementResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.avatica.Meta;

/**
 * A query result read forward in Avatica frames. Batches are pulled from the result's stream
 * only as frames need rows, so a large result is never held whole; each batch is closed as
 * soon as its last row is in a frame, and the result itself once the last frame is cut, on
 * an error, or on {@link #close()}.
 */
final class ResultCursor implements AutoCloseable {
    /** Rows per frame when the client leaves the size to the server. */
    static final int DEFAULT_FRAME_ROWS = 1000;

    private final StatementResult result;
    private final int columns;
    /** Row limit from {@code Statement.setMaxRows}; negative for none. */
    private final long maxRows;
    private Batch batch;
    private int row;
    private long offset;
    private boolean done;
    private boolean closed;

    ResultCursor(StatementResult result, long maxRows) {
        this.result = result;
        this.columns = result.schema().size();
        this.maxRows = maxRows > 0 ? maxRows : -1;
    }

    /** The frame that starts at {@code offset} with at most {@code frameRows} rows (default when not positive). */
    Meta.Frame next(long offset, int frameRows) {
        if (offset != this.offset) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "results are read forward only: asked for row "
                    + offset + " but the next row is " + this.offset);
        }
        int limit = frameRows > 0 ? frameRows : DEFAULT_FRAME_ROWS;
        if (maxRows >= 0) {
            limit = (int) Math.min(limit, maxRows - offset);
        }
        List<Object> rows = new ArrayList<>(Math.min(limit, DEFAULT_FRAME_ROWS));
        try {
            while (rows.size() < limit && advance()) {
                Object[] values = new Object[columns];
                for (int c = 0; c < columns; c++) {
                    values[c] = JdbcTypes.toWire(batch, c, row);
                }
                rows.add(Arrays.asList(values));
                row++;
            }
            this.offset += rows.size();
            // Look ahead so that the last frame says it is the last, saving clients a round trip.
            if ((maxRows >= 0 && this.offset >= maxRows) || !advance()) {
                close();
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        return new Meta.Frame(offset, done, rows);
    }

    /** Makes {@code batch[row]} the next unread row; false at the end of the result. */
    private boolean advance() {
        while (!done && (batch == null || row == batch.rowCount())) {
            closeBatch();
            batch = result.batches().next();
            row = 0;
            if (batch == null) {
                done = true;
            }
        }
        return !done;
    }

    private void closeBatch() {
        if (batch != null) {
            batch.close();
            batch = null;
        }
    }

    /** Releases the current batch and the result; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        done = true;
        try {
            closeBatch();
        } finally {
            result.close();
        }
    }
}
