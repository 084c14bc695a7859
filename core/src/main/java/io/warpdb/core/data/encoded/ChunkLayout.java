package io.warpdb.core.data.encoded;

/** How a chunk's values sit in an Arrow data buffer, which is also their plain encoding. */
public enum ChunkLayout {
    /** BOOLEAN: one bit per value, least significant bit first. */
    BIT,
    /** INTEGER, DATE and the dictionary codes of VARCHAR/CHAR, little-endian. */
    INT32,
    /** BIGINT, DECIMAL (unscaled) and DOUBLE (raw IEEE-754 bits), little-endian. */
    INT64
}
