package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.exec.cpu.batch.BatchRows;

/**
 * Keeps the scanned rows that pass a {@link JoinKeyFilter}, where no operator above the scan
 * runs it itself (a pipeline that is the scan alone, streaming into a join outside it, or a scan
 * under a LEFT or ANTI join whose probe cannot drop rows).
 */
final class JoinKeyFilterOperator extends Operator {
    private final JoinKeyFilter filter;

    JoinKeyFilterOperator(BatchStream input, JoinKeyFilter filter, ExecContext context) {
        super(context, input.schema(), input);
        this.filter = filter;
    }

    @Override
    public Batch next() {
        Batch in;
        while ((in = pullNonEmpty(input(0))) != null) {
            int[] kept = new int[in.rowCount()];
            int count;
            try {
                count = filter.select(in, null, in.rowCount(), kept);
            } catch (RuntimeException e) {
                in.close();
                throw e;
            }
            Batch out = BatchRows.keep(in, kept, count, allocator());
            if (out != null) {
                return out;
            }
        }
        return null;
    }
}
