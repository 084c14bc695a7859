package io.warpdb.storage;

/**
 * Where a column chunk sits in its segment file, as the manifest records it.
 *
 * @param offset   first byte in the file
 * @param length   encoded length in bytes
 * @param crc32c   checksum of those bytes, verified on every read from disk
 * @param encoding the scheme the codec chose, e.g. "dict+rle+bitpack(3)"
 */
record ChunkLocation(long offset, int length, int crc32c, String encoding) {
}
