package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.ChunkLayout;
import io.warpdb.core.types.TypeKind;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import org.apache.arrow.memory.ArrowBuf;

/**
 * How a value sits in its column's Arrow data buffer. Every encoding works on the values as
 * 64-bit integers ({@code long[]}); this is the one place that moves them between that form and
 * the Arrow buffer, so the integer machinery is shared by all types. DOUBLE travels as its raw
 * IEEE-754 bits, which keeps NaN payloads and -0.0 exact.
 */
enum PhysicalLayout {
    /** BOOLEAN: one bit per value, least significant bit first (Arrow's bitmap order). */
    BIT(0, 1, ChunkLayout.BIT),
    /** INTEGER, DATE and the dictionary codes of VARCHAR/CHAR. */
    INT32(1, 32, ChunkLayout.INT32),
    /** BIGINT, DECIMAL (unscaled), TIMESTAMP, INTERVAL and DOUBLE (raw bits). */
    INT64(2, 64, ChunkLayout.INT64);

    /** Written into each chunk so that decoding with the wrong type fails loudly. */
    final int wireId;
    final int bitsPerValue;
    /** The same layout in the storage-neutral chunk description. */
    final ChunkLayout described;

    PhysicalLayout(int wireId, int bitsPerValue, ChunkLayout described) {
        this.wireId = wireId;
        this.bitsPerValue = bitsPerValue;
        this.described = described;
    }

    static PhysicalLayout of(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> BIT;
            case INTEGER, DATE, VARCHAR, CHAR -> INT32;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL, DOUBLE -> INT64;
        };
    }

    static PhysicalLayout ofWireId(int wireId) {
        for (PhysicalLayout layout : values()) {
            if (layout.wireId == wireId) {
                return layout;
            }
        }
        throw new IllegalArgumentException("corrupt encoded chunk: unknown physical layout " + wireId);
    }

    /** Size of {@code count} values in the Arrow buffer, which is also their plain encoding. */
    long plainBytes(int count) {
        return ((long) count * bitsPerValue + 7) / 8;
    }

    /** The first {@code values.length} values of an Arrow data buffer, widened to longs into {@code values}. */
    void load(ArrowBuf data, long[] values) {
        int count = values.length;
        if (count == 0) {
            return;
        }
        switch (this) {
            case BIT -> {
                for (int i = 0; i < count; i++) {
                    values[i] = (data.getByte(i >>> 3) >>> (i & 7)) & 1;
                }
            }
            case INT32 -> {
                IntBuffer ints = data.nioBuffer(0, count * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
                for (int i = 0; i < count; i++) {
                    values[i] = ints.get(i);
                }
            }
            case INT64 -> data.nioBuffer(0, count * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(values);
        }
    }

    /** Writes {@code values[0..count)} into an Arrow data buffer: a bulk copy or one narrowing loop. */
    void store(long[] values, int count, ArrowBuf data) {
        if (count == 0) {
            return;
        }
        switch (this) {
            case BIT -> data.setBytes(0, packBits(values, count));
            case INT32 -> {
                IntBuffer ints = data.nioBuffer(0, count * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
                for (int i = 0; i < count; i++) {
                    ints.put(i, (int) values[i]);
                }
            }
            case INT64 -> data.nioBuffer(0, count * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(values, 0, count);
        }
    }

    /** Writes the values exactly as the Arrow buffer holds them (little-endian, bits LSB first). */
    void writePlain(long[] values, ByteWriter out) {
        switch (this) {
            case BIT -> out.putBytes(packBits(values, values.length));
            case INT32 -> {
                for (long value : values) {
                    out.putInt((int) value);
                }
            }
            case INT64 -> out.putLongs(values, values.length);
        }
    }

    private static byte[] packBits(long[] values, int count) {
        byte[] bits = new byte[(count + 7) / 8];
        for (int i = 0; i < count; i++) {
            bits[i >>> 3] |= (byte) ((values[i] & 1) << (i & 7));
        }
        return bits;
    }
}
