package io.warpdb.exec.cpu.column;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Moves values between Arrow vectors and {@link Column}s. The physical vectors differ only in
 * value width, so both directions work on the raw buffers by width instead of per vector class.
 */
public final class ArrowColumns {
    private ArrowColumns() {
    }

    public static Column read(Batch batch, int column) {
        return read(batch.vector(column), batch.schema().type(column), batch.dictionary(column), batch.rowCount());
    }

    /** The first {@code rowCount} values of a vector holding {@code type}. */
    public static Column read(FieldVector vector, DataType type, StringDictionary dictionary, int rowCount) {
        boolean[] nulls = readNulls(vector, rowCount);
        ArrowBuf data = vector.getDataBuffer();
        ValueLayout layout = ValueLayout.of(type);
        if (layout == ValueLayout.FLOAT64) {
            double[] values = new double[rowCount];
            for (int i = 0; i < rowCount; i++) {
                values[i] = data.getDouble((long) i << 3);
            }
            clearNullSlots(values, nulls);
            return Column.ofDoubles(type, values, nulls);
        }
        long[] values = new long[rowCount];
        switch (layout) {
            case BIT -> {
                for (int i = 0; i < rowCount; i++) {
                    values[i] = BitVectorHelper.get(data, i);
                }
            }
            case INT32 -> {
                for (int i = 0; i < rowCount; i++) {
                    values[i] = data.getInt((long) i << 2);
                }
            }
            default -> {
                for (int i = 0; i < rowCount; i++) {
                    values[i] = data.getLong((long) i << 3);
                }
            }
        }
        if (nulls != null) {
            // Whatever bytes sit under a NULL must not reach arithmetic (a stray divisor, an overflow).
            for (int i = 0; i < rowCount; i++) {
                if (nulls[i]) {
                    values[i] = 0;
                }
            }
        }
        return type.kind().isString() ? Column.ofCodes(type, values, nulls, dictionary) : Column.ofLongs(type, values, nulls);
    }

    private static boolean[] readNulls(FieldVector vector, int rowCount) {
        if (vector.getNullCount() == 0) {
            return null;
        }
        ArrowBuf validity = vector.getValidityBuffer();
        boolean[] nulls = new boolean[rowCount];
        for (int i = 0; i < rowCount; i++) {
            nulls[i] = BitVectorHelper.get(validity, i) == 0;
        }
        return nulls;
    }

    private static void clearNullSlots(double[] values, boolean[] nulls) {
        if (nulls != null) {
            for (int i = 0; i < values.length; i++) {
                if (nulls[i]) {
                    values[i] = 0;
                }
            }
        }
    }

    /**
     * A new vector from {@code allocator} holding the column's values (and its NULLs) as
     * {@code type}, which has the column's layout but may be wider (an INTEGER column written as
     * BIGINT, VARCHAR(5) as VARCHAR).
     */
    public static FieldVector write(Column column, DataType type, String name, BufferAllocator allocator) {
        int rowCount = column.size();
        FieldVector vector = Vectors.allocate(name, type, rowCount, allocator);
        ArrowBuf data = vector.getDataBuffer();
        ArrowBuf validity = vector.getValidityBuffer();
        boolean[] nulls = column.nulls();
        for (int i = 0; i < rowCount; i++) {
            if (nulls == null || !nulls[i]) {
                BitVectorHelper.setBit(validity, i);
            }
        }
        switch (ValueLayout.of(type)) {
            case FLOAT64 -> {
                double[] values = column.doubles();
                for (int i = 0; i < rowCount; i++) {
                    data.setDouble((long) i << 3, values[i]);
                }
            }
            case BIT -> {
                long[] values = column.longs();
                for (int i = 0; i < rowCount; i++) {
                    if (values[i] != 0) {
                        BitVectorHelper.setBit(data, i);
                    }
                }
            }
            case INT32 -> {
                long[] values = column.longs();
                for (int i = 0; i < rowCount; i++) {
                    data.setInt((long) i << 2, (int) values[i]);
                }
            }
            case INT64 -> {
                long[] values = column.longs();
                for (int i = 0; i < rowCount; i++) {
                    data.setLong((long) i << 3, values[i]);
                }
            }
        }
        vector.setValueCount(rowCount);
        return vector;
    }

    /** A new vector of {@code rowCount} NULLs. */
    public static FieldVector nullVector(DataType type, String name, int rowCount, BufferAllocator allocator) {
        FieldVector vector = Vectors.allocate(name, type, rowCount, allocator);
        vector.setValueCount(rowCount);
        return vector;
    }
}
