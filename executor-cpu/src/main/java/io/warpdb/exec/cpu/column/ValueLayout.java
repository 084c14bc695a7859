package io.warpdb.exec.cpu.column;

import io.warpdb.core.types.DataType;

/** How a type's values sit in an Arrow data buffer: bits, or fixed-width little-endian numbers (INT128: Arrow's decimal128, low word first). */
public enum ValueLayout {
    BIT(0), INT32(4), INT64(8), FLOAT64(8), INT128(16);

    /** Bytes per value; 0 for bits. */
    public final int byteWidth;

    ValueLayout(int byteWidth) {
        this.byteWidth = byteWidth;
    }

    public static ValueLayout of(DataType type) {
        if (type.isWideDecimal()) {
            return INT128;
        }
        return switch (type.kind()) {
            case BOOLEAN -> BIT;
            case INTEGER, DATE, VARCHAR, CHAR -> INT32;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> INT64;
            case DOUBLE -> FLOAT64;
        };
    }
}
