package io.warpdb.tpch;

import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Field;
import io.warpdb.sql.Database;
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
        List<List<Object>> rows;
        try (BufferAllocator allocator = database.allocator().newChildAllocator("test-read", 0, Long.MAX_VALUE);
                BatchStream batches = source.scan(columns, allocator)) {
            rows = Batches.drainRows(batches);
        }
        return new ResultTable(source.schema().fields().stream().map(Field::name).toList(), rows);
    }
}
