package io.warpdb.storage.encoding;

/**
 * Working memory that {@link ChunkCodec#encode(org.apache.arrow.vector.FieldVector, io.warpdb.core.types.DataType,
 * io.warpdb.core.batch.StringDictionary, int, ChunkScratch)} reuses from one chunk to the next: the values widened to
 * longs, and the output buffer. A bulk load encodes thousands of chunks of a million rows; fresh arrays for each
 * were a third of its allocation, every one of them humongous and zeroed. One thread at a time; the encoded chunk
 * is copied out, so nothing returned refers to it.
 */
public final class ChunkScratch {
    private long[] longs = new long[0];
    private ByteWriter writer;

    /** An array of exactly {@code count} longs, reused when the last one had that length (chunks of a table mostly do). */
    long[] longs(int count) {
        if (longs.length != count) {
            longs = new long[count];
        }
        return longs;
    }

    /** The output buffer, emptied; made with room for {@code expectedBytes} the first time. */
    ByteWriter writer(int expectedBytes) {
        if (writer == null) {
            writer = new ByteWriter(expectedBytes);
        }
        writer.truncate(0);
        return writer;
    }
}
