package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The rows of one batch as a table for the host evaluator (the distinct combinations of values a
 * GPU string function reads). The batch stays its owner's; a scan's batch shares its buffers.
 */
final class BatchRows implements TableSource {
    private final Batch batch;

    BatchRows(Batch batch) {
        this.batch = batch;
    }

    @Override
    public String name() {
        return "combinations";
    }

    @Override
    public Schema schema() {
        return batch.schema();
    }

    @Override
    public long rowCount() {
        return batch.rowCount();
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        return Batches.of(batch.schema().select(columns), List.of(batch.project(columns, allocator)));
    }
}
