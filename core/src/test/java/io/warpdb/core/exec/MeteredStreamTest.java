package io.warpdb.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/** A metered stream hands over the rows its source holds on a device as they are, counted as the node's rows. */
class MeteredStreamTest {
    private static final Schema ONE_INT = Schema.of(new Field("x", DataType.INTEGER));

    @Test
    void rowsOnTheDevicePassThroughCounted() {
        ResidentRows rows = new ResidentRows() {
            @Override
            public Schema schema() {
                return ONE_INT;
            }

            @Override
            public int rowCount() {
                return 42;
            }

            @Override
            public long bytes() {
                return 168;
            }

            @Override
            public Batch toHost(List<Integer> columns, int from, int count, BufferAllocator allocator) {
                throw new AssertionError("not read on the host");
            }

            @Override
            public void close() {
            }
        };
        BatchStream source = new BatchStream() {
            private ResidentRows held = rows;

            @Override
            public Schema schema() {
                return ONE_INT;
            }

            @Override
            public Batch next() {
                return null;
            }

            @Override
            public ResidentRows takeResident() {
                ResidentRows taken = held;
                held = null;
                return taken;
            }

            @Override
            public void close() {
            }
        };
        NodeStats stats = new NodeStats();
        try (MeteredStream metered = new MeteredStream(source, stats)) {
            assertSame(rows, metered.takeResident());
            assertNull(metered.takeResident());
            assertNull(metered.next());
        }
        assertEquals(42, stats.rows());
    }
}
