package io.warpdb.sql.system;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.CacheStats;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.ScanStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * A read-only system table of one row of BIGINT counters, read when scanned: {@code warpdb_cache}
 * (the decoded-chunk cache) and {@code warpdb_scans} (segments and chunks scans read or skipped).
 */
public final class CounterTable implements TableSource {
    private final String name;
    private final Schema schema;
    private final Supplier<long[]> values;

    private CounterTable(String name, List<String> columns, Supplier<long[]> values) {
        this.name = name;
        this.schema = new Schema(columns.stream().map(c -> new Field(c, DataType.BIGINT.withNullable(false))).toList());
        this.values = values;
    }

    /** The system tables of a catalog. */
    public static List<TableSource> of(Catalog catalog) {
        return List.of(
                new CounterTable("warpdb_cache", List.of("hits", "misses", "evictions", "bytes", "capacity_bytes"), () -> {
                    CacheStats s = catalog.cacheStats();
                    return new long[] {s.hits(), s.misses(), s.evictions(), s.bytes(), s.capacityBytes()};
                }),
                new CounterTable("warpdb_scans", List.of("segments_read", "segments_skipped", "chunks_read"), () -> {
                    ScanStats s = catalog.scanStats();
                    return new long[] {s.segmentsRead(), s.segmentsSkipped(), s.chunksRead()};
                }));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long rowCount() {
        return 1;
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        long[] row = values.get();
        List<FieldVector> vectors = new ArrayList<>();
        for (int c : columns) {
            FieldVector v = Vectors.allocate(schema.field(c).name(), DataType.BIGINT, 1, allocator);
            Vectors.setNormalized(v, DataType.BIGINT, 0, row[c]);
            v.setValueCount(1);
            vectors.add(v);
        }
        Schema out = schema.select(columns);
        Batch batch = new Batch(out, vectors, Arrays.asList(new io.warpdb.core.batch.StringDictionary[columns.size()]), 1);
        return Batches.of(out, List.of(batch));
    }
}
