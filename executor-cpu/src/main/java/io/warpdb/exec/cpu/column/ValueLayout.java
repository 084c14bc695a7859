package io.warpdb.exec.cpu.column;

import io.warpdb.core.types.DataType;

/** How a type's values sit in an Arrow data buffer: bits, or fixed-width little-endian numbers. */
public enum ValueLayout {
    BIT(0), INT32(4), INT64(8), FLOAT64(8);

    /** Bytes per value; 0 for bits. */
    public final int byteWidth;

    ValueLayout(int byteWidth) {
        this.byteWidth = byteWidth;
    }

    public static ValueLayout of(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> BIT;
            case INTEGER, DATE, VARCHAR, CHAR -> INT32;
            case BIGINT, DECIMAL, TIMESTAMP -> INT64;
            case DOUBLE -> FLOAT64;
        };
    }
}
