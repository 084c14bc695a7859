package io.warpdb.core.data.encoded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The description's records reject shapes no well-formed chunk has, and slices read the bytes they name. */
class EncodedDescriptionTest {
    @Test
    void aSliceViewsItsRangeLittleEndianWhateverTheChunkBuffersPosition() {
        ByteBuffer chunk = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        chunk.putLong(3, 0x0102030405060708L).position(11);
        ChunkSlice slice = new ChunkSlice(chunk, 3, 8);
        assertEquals(0x0102030405060708L, slice.view().getLong(0));
        assertEquals(11, chunk.position());
        assertThrows(IllegalArgumentException.class, () -> new ChunkSlice(chunk, 9, 8));
        assertThrows(IllegalArgumentException.class, () -> new ChunkSlice(chunk, -1, 1));
    }

    @Test
    void bitPackedStreamsHoldExactlyTheirWords() {
        ChunkSlice twoWords = new ChunkSlice(ByteBuffer.allocate(16), 0, 16);
        assertEquals(2, new IntegerStream.BitPacked(65, 0, 1, twoWords).words().length() / 8);
        assertEquals(2, IntegerStream.BitPacked.wordCount(2, 64));
        assertEquals(0, IntegerStream.BitPacked.wordCount(1000, 0));
        assertThrows(IllegalArgumentException.class, () -> new IntegerStream.BitPacked(64, 0, 1, twoWords));
        assertThrows(IllegalArgumentException.class, () -> new IntegerStream.BitPacked(1, 0, 65, twoWords));
        assertThrows(IllegalArgumentException.class, () -> new IntegerStream.BitPacked(3, 0, 0, twoWords));
    }

    @Test
    void layersAgreeOnTheirCounts() {
        IntegerStream.BitPacked three = new IntegerStream.BitPacked(3, 7, 0, ChunkSlice.EMPTY);
        assertEquals(10, new IntegerStream.RunLengths(10, three, three).count());
        assertThrows(IllegalArgumentException.class, () -> new IntegerStream.RunLengths(2, three, three));
        assertEquals(4, new IntegerStream.Deltas(4, 1, three).count());
        assertThrows(IllegalArgumentException.class, () -> new IntegerStream.Deltas(3, 1, three));
        assertEquals(0, IntegerStream.Deltas.EMPTY.differences().count());
    }

    @Test
    void aChunkHasValuesExactlyWhenNotAllRowsAreNull() {
        ChunkValues values = new ChunkValues.Cascaded(new IntegerStream.BitPacked(2, 0, 0, ChunkSlice.EMPTY));
        assertEquals(2, new EncodedColumnChunk(ChunkLayout.INT64, 2, ChunkValidity.NO_NULLS, values).rowCount());
        assertEquals(2, new EncodedColumnChunk(ChunkLayout.INT64, 2, ChunkValidity.ALL_NULL, null).rowCount());
        assertThrows(IllegalArgumentException.class, () -> new EncodedColumnChunk(ChunkLayout.INT64, 2, ChunkValidity.ALL_NULL, values));
        assertThrows(IllegalArgumentException.class, () -> new EncodedColumnChunk(ChunkLayout.INT64, 2, ChunkValidity.NO_NULLS, null));
        EncodedColumnChunk chunk = new EncodedColumnChunk(ChunkLayout.INT64, 2, ChunkValidity.NO_NULLS, values);
        assertThrows(IllegalArgumentException.class, () -> new EncodedSegment(3, List.of(chunk)));
    }
}
