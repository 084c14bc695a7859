package io.warpdb.core.data.encoded;

import java.util.List;

/**
 * The requested columns of one stored row group, each as its encoded chunk.
 *
 * @param columns in the order requested, each of {@code rowCount} rows
 */
public record EncodedSegment(int rowCount, List<EncodedColumnChunk> columns) {
    public EncodedSegment {
        columns = List.copyOf(columns);
        for (EncodedColumnChunk chunk : columns) {
            if (chunk.rowCount() != rowCount) {
                throw new IllegalArgumentException("a chunk of " + chunk.rowCount() + " rows in a segment of " + rowCount);
            }
        }
    }
}
