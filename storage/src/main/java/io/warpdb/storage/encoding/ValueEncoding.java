package io.warpdb.storage.encoding;

/**
 * How the values of a chunk are stored: the body that follows the validity layer whenever the
 * chunk has a non-null row. Each kind decodes through its own static {@code decode}; the wire id
 * written before the body tells {@link ChunkCodec} which one to call.
 */
sealed interface ValueEncoding permits Plain, Cascade, Dictionary {
    byte wireId();

    /** Writes the body for {@code column}; returns its description, e.g. "dict+rle+bitpack(3)". */
    String encode(ColumnValues column, ByteWriter out);
}
