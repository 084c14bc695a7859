package io.warpdb.core.exec;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.Schema;

/**
 * Counts the rows a stream yields and the time spent in its {@link #next()} (which includes
 * pulling its inputs) into a {@link NodeStats}. One clock read per batch, none per row.
 */
public final class MeteredStream implements BatchStream {
    private final BatchStream inner;
    private final NodeStats stats;

    public MeteredStream(BatchStream inner, NodeStats stats) {
        this.inner = inner;
        this.stats = stats;
    }

    @Override
    public Schema schema() {
        return inner.schema();
    }

    @Override
    public Batch next() {
        long start = System.nanoTime();
        try {
            Batch batch = inner.next();
            if (batch != null) {
                stats.addRows(batch.rowCount());
            }
            return batch;
        } finally {
            stats.addWallNanos(System.nanoTime() - start);
        }
    }

    @Override
    public ResidentRows takeResident() {
        ResidentRows rows = inner.takeResident();
        if (rows != null) {
            stats.addRows(rows.rowCount());
        }
        return rows;
    }

    @Override
    public void close() {
        inner.close();
    }
}
