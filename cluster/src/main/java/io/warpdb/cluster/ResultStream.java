package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.StatementResult;

/** A statement's result as a stream; closing it closes the result, then {@code after} (e.g. the gathered database it came from). */
final class ResultStream implements BatchStream {
    private final StatementResult result;
    private final AutoCloseable after;

    ResultStream(StatementResult result, AutoCloseable after) {
        this.result = result;
        this.after = after;
    }

    @Override
    public Schema schema() {
        return result.schema();
    }

    @Override
    public Batch next() {
        return result.batches().next();
    }

    @Override
    public ResidentRows takeResident() {
        return result.batches().takeResident();
    }

    @Override
    public void close() {
        try {
            result.close();
        } finally {
            try {
                after.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
