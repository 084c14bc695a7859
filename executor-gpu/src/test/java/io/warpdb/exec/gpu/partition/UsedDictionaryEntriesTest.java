package io.warpdb.exec.gpu.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Recoding a partition's string columns to the dictionary entries its rows use (no device
 * needed): every value and NULL stays where it was, a recoded column has one dictionary of
 * exactly its distinct values, columns whose dictionaries are small keep them, and the source
 * table is left as it was.
 */
class UsedDictionaryEntriesTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INTEGER), new Field("wide", DataType.VARCHAR),
            new Field("narrow", DataType.VARCHAR));

    @Test
    void wideDictionariesShrinkToTheValuesUsed() {
        Options options = Options.plain().withDistinct(20_000).withNulls(0.1).withVaryingDictionaries();
        try (ListSource source = randomSource(new RandomBatches(5), SCHEMA, 20_000, options)) {
            for (int rows : List.of(1, 33, 2_000)) {
                // The first rows of a large input keep its dictionaries, as an out-of-core operator's partitions do.
                try (HostTable table = head(source, rows); HostTable recoded = UsedDictionaryEntries.of(table, allocator)) {
                    assertEquals(values(table), values(recoded), "rows " + rows);
                    Set<String> used = new HashSet<>();
                    for (List<Object> row : values(table)) {
                        if (row.get(1) != null) {
                            used.add((String) row.get(1));
                        }
                    }
                    for (Batch b : recoded.batches()) {
                        assertSame(recoded.batches().get(0).dictionary(1), b.dictionary(1), "one dictionary for the column");
                        assertEquals(used.size(), b.dictionary(1).size(), "rows " + rows + ": entries of the recoded column");
                    }
                    assertEquals(rows, table.rows(), "the source stays whole");
                }
            }
        }
    }

    @Test
    void smallDictionariesAreKept() {
        Options options = Options.plain().withDistinct(10);
        try (ListSource source = randomSource(new RandomBatches(7), SCHEMA, 2_000, options);
                HostTable table = head(source, 2_000);
                HostTable recoded = UsedDictionaryEntries.of(table, allocator)) {
            assertEquals(values(table), values(recoded));
            for (int i = 0; i < table.batches().size(); i++) {
                assertSame(table.batches().get(i).dictionary(1), recoded.batches().get(i).dictionary(1));
            }
        }
    }

    /** The first {@code rows} rows of the source as a table sharing its buffers. */
    private HostTable head(ListSource source, int rows) {
        List<Batch> batches = new ArrayList<>();
        int left = rows;
        for (Batch b : source.batches()) {
            int n = Math.min(left, b.rowCount());
            if (n > 0) {
                batches.add(Batches.slice(b, 0, n, allocator));
                left -= n;
            }
        }
        return new HostTable(SCHEMA, batches);
    }

    private static List<List<Object>> values(HostTable table) {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch b : table.batches()) {
            for (int r = 0; r < b.rowCount(); r++) {
                List<Object> row = new ArrayList<>();
                for (int c = 0; c < b.columnCount(); c++) {
                    row.add(b.getObject(c, r));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
