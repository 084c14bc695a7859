package io.warpdb.exec.cpu.column;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Moves values between Arrow vectors and {@link Column}s. The physical vectors differ only in
 * value width, so both directions work on the raw buffers by width instead of per vector class,
 * through their memory addresses: {@link ArrowBuf}'s accessors check bounds on every value,
 * which cost more than the copy itself; the loops here stay within the row counts the vectors
 * were allocated or filled for.
 */
public final class ArrowColumns {
    private ArrowColumns() {
    }

    public static Column read(Batch batch, int column) {
        return read(batch.vector(column), batch.schema().type(column), batch.dictionary(column), batch.rowCount());
    }

    /**
     * The values of {@code rows} (in that order) of a batch's column: a projection over a
     * selective filter reads just the passing rows instead of the whole vector.
     */
    public static Column read(Batch batch, int column, int[] rows) {
        return read(batch.vector(column), batch.schema().type(column), batch.dictionary(column), rows, rows.length);
    }

    /** The first {@code rowCount} values of a vector holding {@code type}. */
    public static Column read(FieldVector vector, DataType type, StringDictionary dictionary, int rowCount) {
        return read(vector, type, dictionary, null, rowCount);
    }

    /**
     * The values at {@code rows}, or the first {@code rowCount} when {@code rows} is null. Each layout has its own
     * loop in a method of its own, so that the JIT profiles and compiles each apart: one loop method for every layout
     * was recompiled with the layouts of every query that ran before (as ArithmeticEvaluator's was), and a whole
     * column of 8-byte values is one bulk copy.
     */
    private static Column read(FieldVector vector, DataType type, StringDictionary dictionary, int[] rows, int rowCount) {
        boolean[] nulls = readNulls(vector, rows, rowCount);
        ArrowBuf data = vector.getDataBuffer();
        ValueLayout layout = ValueLayout.of(type);
        if (layout == ValueLayout.FLOAT64) {
            double[] values = readDoubles(data, rows, rowCount);
            clearNullSlots(values, nulls);
            return Column.ofDoubles(type, values, nulls);
        }
        if (layout == ValueLayout.INT128) {
            long[] values = new long[rowCount];
            long[] highs = new long[rowCount];
            readWide(data.memoryAddress(), rows, values, highs);
            clearNullSlots(values, nulls);
            clearNullSlots(highs, nulls);
            return Column.ofWide(type, values, highs, nulls);
        }
        long[] values = switch (layout) {
            case BIT -> readBits(data, rows, rowCount);
            case INT32 -> readInts(data.memoryAddress(), rows, rowCount);
            default -> readLongs(data, rows, rowCount);
        };
        clearNullSlots(values, nulls);
        return type.kind().isString() ? Column.ofCodes(type, values, nulls, dictionary) : Column.ofLongs(type, values, nulls);
    }

    private static double[] readDoubles(ArrowBuf data, int[] rows, int rowCount) {
        double[] values = new double[rowCount];
        if (rows == null) {
            data.nioBuffer(0, rowCount * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(values);
            return values;
        }
        long address = data.memoryAddress();
        for (int i = 0; i < rowCount; i++) {
            values[i] = Double.longBitsToDouble(MemoryUtil.getLong(address + ((long) rows[i] << 3)));
        }
        return values;
    }

    private static long[] readLongs(ArrowBuf data, int[] rows, int rowCount) {
        long[] values = new long[rowCount];
        if (rows == null) {
            data.nioBuffer(0, rowCount * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(values);
            return values;
        }
        long address = data.memoryAddress();
        for (int i = 0; i < rowCount; i++) {
            values[i] = MemoryUtil.getLong(address + ((long) rows[i] << 3));
        }
        return values;
    }

    private static long[] readInts(long address, int[] rows, int rowCount) {
        long[] values = new long[rowCount];
        if (rows == null) {
            for (int i = 0; i < rowCount; i++) {
                values[i] = MemoryUtil.getInt(address + ((long) i << 2));
            }
        } else {
            for (int i = 0; i < rowCount; i++) {
                values[i] = MemoryUtil.getInt(address + ((long) rows[i] << 2));
            }
        }
        return values;
    }

    private static long[] readBits(ArrowBuf data, int[] rows, int rowCount) {
        long[] values = new long[rowCount];
        for (int i = 0; i < rowCount; i++) {
            values[i] = BitVectorHelper.get(data, rows == null ? i : rows[i]);
        }
        return values;
    }

    private static void readWide(long address, int[] rows, long[] values, long[] highs) {
        for (int i = 0; i < values.length; i++) {
            long at = address + ((long) (rows == null ? i : rows[i]) << 4);
            values[i] = MemoryUtil.getLong(at);
            highs[i] = MemoryUtil.getLong(at + 8);
        }
    }

    private static boolean[] readNulls(FieldVector vector, int[] rows, int rowCount) {
        if (vector.getNullCount() == 0) {
            return null;
        }
        long validity = vector.getValidityBuffer().memoryAddress();
        boolean[] nulls = new boolean[rowCount];
        for (int i = 0; i < rowCount; i++) {
            int row = rows == null ? i : rows[i];
            nulls[i] = (MemoryUtil.getByte(validity + (row >> 3)) >> (row & 7) & 1) == 0;
        }
        return nulls;
    }

    // Whatever bytes sit under a NULL must not reach arithmetic (a stray divisor, an overflow).
    private static void clearNullSlots(double[] values, boolean[] nulls) {
        if (nulls != null) {
            for (int i = 0; i < values.length; i++) {
                if (nulls[i]) {
                    values[i] = 0;
                }
            }
        }
    }

    private static void clearNullSlots(long[] values, boolean[] nulls) {
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
        long address = data.memoryAddress();
        writeValidity(vector.getValidityBuffer().memoryAddress(), column.nulls(), rowCount);
        switch (ValueLayout.of(type)) {
            case FLOAT64 -> {
                double[] values = column.doubles();
                for (int i = 0; i < rowCount; i++) {
                    MemoryUtil.putLong(address + ((long) i << 3), Double.doubleToRawLongBits(values[i]));
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
                    MemoryUtil.putInt(address + ((long) i << 2), (int) values[i]);
                }
            }
            case INT64 -> {
                long[] values = column.longs();
                for (int i = 0; i < rowCount; i++) {
                    MemoryUtil.putLong(address + ((long) i << 3), values[i]);
                }
            }
            case INT128 -> {
                long[] lows = column.longs();
                long[] highs = column.highs();
                for (int i = 0; i < rowCount; i++) {
                    MemoryUtil.putLong(address + ((long) i << 4), lows[i]);
                    MemoryUtil.putLong(address + ((long) i << 4) + 8, highs[i]);
                }
            }
        }
        vector.setValueCount(rowCount);
        return vector;
    }

    /** Sets the validity bits of the non-NULL rows, a byte at a time (the buffer starts cleared). */
    private static void writeValidity(long validity, boolean[] nulls, int rowCount) {
        for (int from = 0; from < rowCount; from += 8) {
            int bits = 0;
            for (int i = from, end = Math.min(from + 8, rowCount); i < end; i++) {
                if (nulls == null || !nulls[i]) {
                    bits |= 1 << (i - from);
                }
            }
            MemoryUtil.putByte(validity + (from >> 3), (byte) bits);
        }
    }

    /** A new vector of {@code rowCount} NULLs. */
    public static FieldVector nullVector(DataType type, String name, int rowCount, BufferAllocator allocator) {
        FieldVector vector = Vectors.allocate(name, type, rowCount, allocator);
        vector.setValueCount(rowCount);
        return vector;
    }
}
