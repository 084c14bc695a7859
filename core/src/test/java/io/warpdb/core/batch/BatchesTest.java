package io.warpdb.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** {@link Batches#longRow}: one row of BIGINT counters, as a node reports them to another. */
class BatchesTest {
    @Test
    void aRowOfCountersHoldsEachValueUnderItsColumn() {
        Schema schema = Schema.of(new Field("rows", DataType.BIGINT), new Field("bytes", DataType.BIGINT),
                new Field("nanos", DataType.BIGINT));
        try (BufferAllocator allocator = new RootAllocator()) {
            try (Batch row = Batches.longRow(schema, allocator, 7, Long.MAX_VALUE, -1)) {
                assertEquals(1, row.rowCount());
                assertEquals(schema, row.schema());
                assertEquals(List.of(List.<Object>of(7L, Long.MAX_VALUE, -1L)),
                        Batches.drainRows(Batches.of(schema, List.of(row.project(List.of(0, 1, 2), allocator)))));
            }
            assertEquals(0, allocator.getAllocatedMemory(), "the row's vectors are freed with it");
        }
    }
}
