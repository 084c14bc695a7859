package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.ChunkValues;
import org.apache.arrow.memory.ArrowBuf;

/**
 * The values exactly as the Arrow data buffer holds them: the baseline every other encoding must
 * beat, and the fastest to decode (one bulk copy). Wire: {@code PhysicalLayout.plainBytes(count)} bytes.
 */
final class Plain implements ValueEncoding {
    static final byte WIRE_ID = 0;
    static final Plain INSTANCE = new Plain();

    private Plain() {
    }

    /** Exact encoded size. */
    static long analyze(ColumnValues column) {
        return column.layout().plainBytes(column.count());
    }

    @Override
    public byte wireId() {
        return WIRE_ID;
    }

    @Override
    public String encode(ColumnValues column, ByteWriter out) {
        column.layout().writePlain(column.values(), out);
        return "plain";
    }

    static ChunkValues.Plain read(ByteReader in, PhysicalLayout layout, int count) {
        return new ChunkValues.Plain(in.readChunkSlice(layout.plainBytes(count)));
    }

    static void decode(ChunkValues.Plain values, ArrowBuf data) {
        data.setBytes(0, values.bytes().view());
    }

    @Override
    public String toString() {
        return "plain";
    }
}
