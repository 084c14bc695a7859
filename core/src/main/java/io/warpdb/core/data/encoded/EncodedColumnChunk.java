package io.warpdb.core.data.encoded;

/**
 * One stored column chunk, described.
 *
 * @param values null exactly when {@code validity} is {@link ChunkValidity.AllNull}: such a chunk stores none
 */
public record EncodedColumnChunk(ChunkLayout layout, int rowCount, ChunkValidity validity, ChunkValues values) {
    public EncodedColumnChunk {
        if (rowCount < 0 || (values == null) != (validity instanceof ChunkValidity.AllNull)) {
            throw new IllegalArgumentException("a chunk of " + rowCount + " rows has values exactly when not all are NULL");
        }
    }
}
