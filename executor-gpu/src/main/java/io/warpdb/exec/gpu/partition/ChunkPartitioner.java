package io.warpdb.exec.gpu.partition;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Partitions a host table chunk by chunk (seed 002 Algorithm 6): each chunk is copied in,
 * partitioned by {@link RadixPartitioner} with its own local prefix sums, and copied back in
 * partition order; its partitions' rows become pieces of the {@link HostPartitions}, so a
 * partition's rows are spread over the chunks and gathered when it is used.
 */
public final class ChunkPartitioner {
    private ChunkPartitioner() {
    }

    /** Bits [shift, shift + bits) of the key hash of each row of {@code input} pick its partition; the input stays owned by the caller. */
    public static HostPartitions partition(HostTable input, List<Integer> keys, RadixPartitioner.NullKeys nulls, int shift, int bits,
            long chunkRows,
            TaskRunner runner, BufferAllocator allocator) {
        List<List<Batch>> chunks = input.chunks(chunkRows, allocator);
        try {
            List<TaskRunner.Task<PartitionedChunk>> tasks = new ArrayList<>(chunks.size());
            for (List<Batch> chunk : chunks) {
                tasks.add(work -> partitionChunk(input.schema(), chunk, keys, nulls, shift, bits, allocator, work));
            }
            HostPartitions out = new HostPartitions(input.schema(), 1 << bits);
            for (PartitionedChunk partitioned : runner.run(tasks)) {
                partitioned.moveInto(out);
            }
            return out;
        } finally {
            chunks.forEach(c -> c.forEach(Batch::close));
        }
    }

    /** One chunk's partitions: piece p is null where the chunk has no row of partition p. */
    private record PartitionedChunk(Batch[] pieces) implements AutoCloseable {
        void moveInto(HostPartitions out) {
            for (int p = 0; p < pieces.length; p++) {
                if (pieces[p] != null) {
                    out.add(p, pieces[p]);
                    pieces[p] = null;
                }
            }
        }

        @Override
        public void close() {
            for (Batch b : pieces) {
                if (b != null) {
                    b.close();
                }
            }
        }
    }

    private static PartitionedChunk partitionChunk(Schema schema, List<Batch> chunk, List<Integer> keys,
            RadixPartitioner.NullKeys nulls, int shift, int bits,
            BufferAllocator allocator, DeviceWork work) {
        try (DeviceTable rows = HostToDevice.upload(schema, chunk, work);
                RadixPartitioner.Partitioned partitioned = RadixPartitioner.partition(rows, keys, nulls, shift, bits, work);
                Batch ordered = DeviceToHost.download(partitioned.rows(), 0, partitioned.rows().rows(), allocator, work)) {
            int[] sizes = partitioned.sizes();
            PartitionedChunk out = new PartitionedChunk(new Batch[sizes.length]);
            try {
                int at = 0;
                for (int p = 0; p < sizes.length; p++) {
                    if (sizes[p] > 0) {
                        out.pieces()[p] = Batches.slice(ordered, at, sizes[p], allocator);
                        at += sizes[p];
                    }
                }
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }
}
