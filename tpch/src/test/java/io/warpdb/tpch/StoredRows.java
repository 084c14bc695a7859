package io.warpdb.tpch;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Field;
import io.warpdb.sql.Database;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;

/** Reads a WarpDB table straight from storage, without SQL, for checks that must not depend on the executor. */
final class StoredRows {
    private StoredRows() {
    }

    static ResultTable read(Database database, String table) {
        TableSource source = database.catalog().table(table).orElseThrow().snapshot();
        List<Integer> columns = IntStream.range(0, source.schema().size()).boxed().toList();
        List<List<Object>> rows = new ArrayList<>();
        try (BufferAllocator allocator = database.allocator().newChildAllocator("test-read", 0, Long.MAX_VALUE);
                BatchStream batches = source.scan(columns, allocator)) {
            for (Batch b = batches.next(); b != null; b = batches.next()) {
                try (Batch batch = b) {
                    for (int r = 0; r < batch.rowCount(); r++) {
                        Object[] row = new Object[batch.columnCount()];
                        for (int c = 0; c < row.length; c++) {
                            row[c] = batch.getObject(c, r);
                        }
                        rows.add(Arrays.asList(row));
                    }
                }
            }
        }
        return new ResultTable(source.schema().fields().stream().map(Field::name).toList(), rows);
    }
}
