package io.warpdb.storage.encoding;

/**
 * One column chunk, encoded.
 *
 * @param bytes self-describing: {@link ChunkCodec#decode} needs only these and the column type
 * @param description the scheme chosen, for docs and EXPLAIN, e.g. "dict+rle+delta+bitpack(3) nulls:runs"
 */
public record EncodedChunk(byte[] bytes, String description) {
}
