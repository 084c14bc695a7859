package io.warpdb.core.data;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.encoded.EncodedSegment;
import io.warpdb.core.types.Schema;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What a scan reads: a table version as storage exposes it to executors, which know no
 * storage classes. Implementations are snapshots: a scan sees the rows committed when the
 * source was obtained, whatever is written afterwards.
 */
public interface TableSource {
    /** Qualified table name, for plans and messages. */
    String name();

    Schema schema();

    long rowCount();

    /**
     * Streams the given columns (positions in {@link #schema()}) in row order; the batches are
     * allocated from {@code allocator} and owned by the caller.
     */
    BatchStream scan(List<Integer> columns, BufferAllocator allocator);

    /**
     * Like {@link #scan(List, BufferAllocator)}, skipping storage chunks that the predicates
     * (all of which must hold) prove empty. Rows failing a predicate may still be returned.
     */
    default BatchStream scan(List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
        return scan(columns, allocator);
    }

    /**
     * The scan of {@link #scan(List, List, BufferAllocator)} cut into parts that may be read at
     * the same time by different threads, in row order: their batches, part after part, are the
     * scan's. Each part does its work (decoding, reading) when first pulled, not when made, and
     * the caller closes every part, pulled or not. Storage gives one part per segment, so
     * parallel scans decode segments in parallel; the default is the whole scan as one part.
     */
    default List<BatchStream> scanParts(List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
        return List.of(scan(columns, predicates, allocator));
    }

    /**
     * The given columns (positions in {@link #schema()}) as stored, encoded, one element per
     * segment in row order, skipping segments that the predicates prove empty (as {@link
     * #scan(List, List, BufferAllocator)} does): for executors that decode on their own (the GPU,
     * on the device). Empty when the source cannot offer every row that way (the default; also
     * storage whose rows are not all in encoded chunks or have deletions); callers then scan.
     */
    default Optional<List<EncodedSegment>> encodedSegments(List<Integer> columns, List<ColumnPredicate> predicates) {
        return Optional.empty();
    }

    /**
     * The rows a {@link #scan(List, List, BufferAllocator)} with these predicates would return at
     * most, known without reading data (storage counts the live rows of the chunks its zone maps
     * keep); the row count when the source does not prune.
     */
    default long rowsKept(List<ColumnPredicate> predicates) {
        return rowCount();
    }

    /**
     * An identity of the data this source reads: equal for two sources exactly when they read the
     * same rows (an immutable table version), so executors may cache what they derive from it
     * (the GPU keeps columns in device memory). Null when the source cannot promise that.
     */
    default Object dataVersion() {
        return null;
    }

    /** Statistics of a column (position in {@link #schema()}), when the source keeps any. */
    default Optional<ColumnStatistics> statistics(int column) {
        return Optional.empty();
    }
}
