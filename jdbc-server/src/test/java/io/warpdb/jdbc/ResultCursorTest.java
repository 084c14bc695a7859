package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.StatementResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.calcite.avatica.Meta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ResultCursorTest {
    private static final Schema SCHEMA = Schema.of(new Field("x", DataType.BIGINT), new Field("d", DataType.DATE));

    private final RootAllocator root = new RootAllocator();
    private final BufferAllocator allocator = root.newChildAllocator("query", 0, Long.MAX_VALUE);

    @AfterEach
    void noLeaks() {
        root.close(); // throws if any buffer is still allocated
    }

    /** A stream of batches of the given sizes, numbering rows from 0, that counts its pulls and can fail at one. */
    private final class CountingStream implements BatchStream {
        final int[] sizes;
        final int failAt;
        int pulled;
        long nextValue;

        CountingStream(int failAt, int... sizes) {
            this.sizes = sizes;
            this.failAt = failAt;
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public Batch next() {
            if (pulled == failAt) {
                throw new WarpException(SqlState.DIVISION_BY_ZERO, "division by zero");
            }
            if (pulled == sizes.length) {
                return null;
            }
            int rows = sizes[pulled++];
            FieldVector x = Vectors.allocate("x", DataType.BIGINT, rows, allocator);
            FieldVector d = Vectors.allocate("d", DataType.DATE, rows, allocator);
            for (int i = 0; i < rows; i++) {
                Vectors.setNormalized(x, DataType.BIGINT, i, nextValue);
                Vectors.setNormalized(d, DataType.DATE, i, i == 0 ? null : nextValue);
                nextValue++;
            }
            x.setValueCount(rows);
            d.setValueCount(rows);
            return new Batch(SCHEMA, List.of(x, d), Arrays.asList(null, null), rows);
        }

        @Override
        public void close() {
        }
    }

    private StatementResult result(CountingStream stream) {
        return StatementResult.query(SCHEMA, stream, allocator);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> row(Meta.Frame frame, int i) {
        return (List<Object>) ((List<Object>) frame.rows).get(i);
    }

    private static int size(Meta.Frame frame) {
        return ((List<?>) frame.rows).size();
    }

    @Test
    void framesPullBatchesOnlyAsNeededAndReleaseThem() {
        CountingStream stream = new CountingStream(-1, 10, 0, 10, 5);
        try (ResultCursor cursor = new ResultCursor(result(stream), -1)) {
            Meta.Frame first = cursor.next(0, 7);
            assertEquals(7, size(first));
            assertFalse(first.done);
            assertEquals(1, stream.pulled, "one batch is enough for the first frame");
            assertEquals(List.of(0L, 6L), List.of(row(first, 0).get(0), row(first, 6).get(0)));
            assertEquals(null, row(first, 0).get(1));
            assertEquals(1, row(first, 1).get(1), "DATE travels as a day number");

            Meta.Frame second = cursor.next(7, 7);
            assertEquals(7L, second.offset);
            assertEquals(List.of(7L, 13L), List.of(row(second, 0).get(0), row(second, 6).get(0)));
            assertEquals(3, stream.pulled, "the empty batch is skipped");

            Meta.Frame third = cursor.next(14, 100);
            assertEquals(11, size(third));
            assertTrue(third.done);
            assertEquals(24L, row(third, 10).get(0));
            assertEquals(0, allocator.getAllocatedMemory(), "done releases every batch");

            Meta.Frame after = cursor.next(25, 100);
            assertTrue(after.done);
            assertEquals(0, size(after));
        }
    }

    @Test
    void theLastFrameSaysItIsLast() {
        try (ResultCursor cursor = new ResultCursor(result(new CountingStream(-1, 4, 4)), -1)) {
            Meta.Frame first = cursor.next(0, 4);
            assertFalse(first.done);
            Meta.Frame second = cursor.next(4, 4);
            assertEquals(4, size(second));
            assertTrue(second.done, "no empty frame is needed to learn the end");
        }
    }

    @Test
    void maxRowsEndsTheResultEarly() {
        try (ResultCursor cursor = new ResultCursor(result(new CountingStream(-1, 10, 10)), 12)) {
            assertEquals(10, size(cursor.next(0, 10)));
            Meta.Frame last = cursor.next(10, 10);
            assertEquals(2, size(last));
            assertTrue(last.done);
        }
    }

    @Test
    void defaultFrameSizeAppliesWhenTheClientLeavesItOpen() {
        try (ResultCursor cursor = new ResultCursor(result(new CountingStream(-1, 3000)), -1)) {
            assertEquals(ResultCursor.DEFAULT_FRAME_ROWS, size(cursor.next(0, -1)));
        }
    }

    @Test
    void closingMidwayReleasesTheBatchInHand() {
        ResultCursor cursor = new ResultCursor(result(new CountingStream(-1, 10, 10)), -1);
        cursor.next(0, 3);
        cursor.close();
        cursor.close();
        assertEquals(0, allocator.getAllocatedMemory());
    }

    @Test
    void anErrorMidStreamReleasesEverything() {
        ResultCursor cursor = new ResultCursor(result(new CountingStream(2, 5, 5)), -1);
        cursor.next(0, 5);
        WarpException e = assertThrows(WarpException.class, () -> cursor.next(5, 100));
        assertEquals("22012", e.sqlState());
        assertEquals(0, allocator.getAllocatedMemory());
    }

    @Test
    void readingOutOfOrderIsRefused() {
        try (ResultCursor cursor = new ResultCursor(result(new CountingStream(-1, 10)), -1)) {
            cursor.next(0, 3);
            assertEquals("22023", assertThrows(WarpException.class, () -> cursor.next(0, 3)).sqlState());
        }
    }

    @Test
    void rowsAreListsOfWireValues() {
        try (ResultCursor cursor = new ResultCursor(result(new CountingStream(-1, 2)), -1)) {
            List<Object> rows = new ArrayList<>();
            cursor.next(0, 10).rows.forEach(rows::add);
            assertEquals(List.of(List.of(0L), List.of(1L)), rows.stream().map(r -> ((List<?>) r).subList(0, 1)).toList());
        }
    }
}
