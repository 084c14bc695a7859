package io.warpdb.exec.gpu.testing;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A table over batches in hand. The source owns them and closes them with {@link #close()};
 * every scan hands out new batches that share their buffers (Arrow reference counts), so the
 * CPU executor may close what it scans while the GPU side still uploads the originals.
 */
public final class ListSource implements TableSource, AutoCloseable {
    private final Schema schema;
    private final List<Batch> batches;
    private final Object dataVersion;

    public ListSource(Schema schema, List<Batch> batches) {
        this(schema, batches, null);
    }

    /** With a data version, so the GPU executor caches the columns it copies in. */
    public ListSource(Schema schema, List<Batch> batches, Object dataVersion) {
        this.schema = schema;
        this.batches = List.copyOf(batches);
        this.dataVersion = dataVersion;
    }

    @Override
    public Object dataVersion() {
        return dataVersion;
    }

    /** The batches themselves (still owned by this source). */
    public List<Batch> batches() {
        return batches;
    }

    /** Positions 0..n-1 of the schema, for a scan of every column. */
    public List<Integer> allColumns() {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            all.add(i);
        }
        return all;
    }

    @Override
    public String name() {
        return "test.list";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long rowCount() {
        return batches.stream().mapToLong(Batch::rowCount).sum();
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        List<Batch> out = new ArrayList<>(batches.size());
        try {
            for (Batch b : batches) {
                out.add(b.project(columns, allocator));
            }
        } catch (RuntimeException e) {
            out.forEach(Batch::close);
            throw e;
        }
        return Batches.of(schema.select(columns), out);
    }

    @Override
    public void close() {
        batches.forEach(Batch::close);
    }
}
