package io.warpdb.core.data.encoded;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A range of an encoded chunk's bytes. Both where it lies (so a chunk may be copied whole, e.g. to
 * the device, and its parts addressed there by offset) and a view for reading on the host.
 *
 * @param chunk the whole chunk from its byte 0 (never moved or changed: read it through {@link #view()})
 * @param offset first byte of the range within {@code chunk}
 * @param length bytes in the range
 */
public record ChunkSlice(ByteBuffer chunk, int offset, int length) {
    public static final ChunkSlice EMPTY = new ChunkSlice(ByteBuffer.allocate(0), 0, 0);

    public ChunkSlice {
        if (offset < 0 || length < 0 || (long) offset + length > chunk.capacity()) {
            throw new IllegalArgumentException("slice [" + offset + ", +" + length + ") outside a chunk of " + chunk.capacity() + " bytes");
        }
    }

    /** The range as a little-endian buffer of its own, positioned at 0. */
    public ByteBuffer view() {
        return chunk.slice(offset, length).order(ByteOrder.LITTLE_ENDIAN);
    }
}
