package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/** One committed state of a table: its chunks at the time of a commit. Immutable. */
final class TableVersion implements TableSource {
    private final String name;
    private final Schema schema;
    private final List<Chunk> chunks;
    private final long rowCount;
    private final Table owner;

    TableVersion(Table owner, String name, Schema schema, List<Chunk> chunks) {
        this.owner = owner;
        this.name = name;
        this.schema = schema;
        this.chunks = List.copyOf(chunks);
        this.rowCount = chunks.stream().mapToLong(Chunk::rowCount).sum();
    }

    List<Chunk> chunks() {
        return chunks;
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
        return rowCount;
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        Schema out = schema.select(columns);
        return new BatchStream() {
            private int next;

            @Override
            public Schema schema() {
                return out;
            }

            @Override
            public Batch next() {
                // Reading under the table's lock keeps DROP from freeing a chunk mid-read;
                // the batch then holds its own references to the buffers.
                synchronized (owner) {
                    if (owner.isDropped()) {
                        throw new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " was dropped while a query read it");
                    }
                    while (next < chunks.size()) {
                        Chunk c = chunks.get(next++);
                        if (c.rowCount() > 0) {
                            return c.read(schema, columns, allocator);
                        }
                    }
                    return null;
                }
            }

            @Override
            public void close() {
                next = chunks.size();
            }
        };
    }
}
