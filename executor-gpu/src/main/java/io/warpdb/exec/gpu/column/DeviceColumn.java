package io.warpdb.exec.gpu.column;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One column in device memory: {@code rows} values of the type's device width (BOOLEAN one byte,
 * INTEGER/DATE/string codes four, BIGINT/DECIMAL/DOUBLE eight, a DECIMAL of more than 18 digits
 * sixteen: only the hash partitioner moves those) and, when the column has NULLs,
 * one validity byte per row (1 = valid). Several tables may share a column (a projection that
 * passes it through, the column cache); it is reference counted and freed by the last close.
 */
public final class DeviceColumn implements AutoCloseable {
    private final DataType type;
    private final int rows;
    private final DeviceBuffer values;
    private final DeviceBuffer validity;
    private final StringDictionary dictionary;
    private final AtomicInteger references = new AtomicInteger(1);

    public DeviceColumn(DataType type, int rows, DeviceBuffer values, DeviceBuffer validity, StringDictionary dictionary) {
        if (type.kind().isString() && dictionary == null) {
            throw new IllegalArgumentException("string column without dictionary");
        }
        this.type = type;
        this.rows = rows;
        this.values = values;
        this.validity = validity;
        this.dictionary = dictionary;
    }

    /** Bytes per value on the device. */
    public static int width(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INTEGER, DATE, VARCHAR, CHAR -> 4;
            case DECIMAL -> type.isWideDecimal() ? 16 : 8;
            case BIGINT, TIMESTAMP, INTERVAL, DOUBLE -> 8;
        };
    }

    public DataType type() {
        return type;
    }

    public int rows() {
        return rows;
    }

    public DeviceBuffer values() {
        return values;
    }

    /** One byte per row, 1 where the value is not NULL; null when no row is NULL. */
    public DeviceBuffer validity() {
        return validity;
    }

    /** The validity bytes' device address, 0 when the column has no NULLs (as kernels take it). */
    public long validityAddress() {
        return validity == null ? 0 : validity.address();
    }

    public StringDictionary dictionary() {
        return dictionary;
    }

    /** Device bytes held. */
    public long bytes() {
        return values.bytes() + (validity == null ? 0 : validity.bytes());
    }

    /**
     * Bytes its rows take: {@link #width} per value, and a validity byte per row where it has NULLs
     * (the buffers may be larger); what a kernel reading every row moves from device memory.
     */
    public long dataBytes() {
        return (long) rows * (width(type) + (validity == null ? 0 : 1));
    }

    /** Another reference to this column; each reference is closed once. */
    public DeviceColumn share() {
        DeviceColumn shared = tryShare();
        if (shared == null) {
            throw new IllegalStateException("column already freed");
        }
        return shared;
    }

    /** Another reference, or null when the last one was closed meanwhile (a cache entry evicted by another query). */
    public DeviceColumn tryShare() {
        int n = references.get();
        while (n > 0) {
            if (references.compareAndSet(n, n + 1)) {
                return this;
            }
            n = references.get();
        }
        return null;
    }

    /** Closes each of {@code columns} that is not null (what a failed step had made so far). */
    public static void closeAll(DeviceColumn[] columns) {
        for (DeviceColumn c : columns) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Override
    public void close() {
        if (references.decrementAndGet() == 0) {
            values.close();
            if (validity != null) {
                validity.close();
            }
        }
    }
}
