package io.warpdb.exec.cpu.batch;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.column.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Row movements between Arrow batches: gathering rows by position, sharing or slicing vectors
 * without copying, and concatenating batches. Results are new vectors from the given allocator;
 * inputs are left untouched unless a method says it takes them over.
 */
public final class BatchRows {
    private BatchRows() {
    }

    /** Rows {@code rows[i]} of {@code source}, in that order; a position of -1 gives NULL. */
    public static FieldVector gather(FieldVector source, DataType type, int[] rows, BufferAllocator allocator) {
        FieldVector out = Vectors.allocate(source.getName(), type, rows.length, allocator);
        copyRows(source, rows, rows.length, out, 0, ValueLayout.of(type));
        out.setValueCount(rows.length);
        return out;
    }

    /**
     * Copies rows {@code rows[i]} (or rows 0..count-1 when {@code rows} is null; -1 for NULL) of
     * {@code source} into rows {@code at + i} of {@code target}, which has room for them. Works
     * on the raw buffers' addresses, as all vectors here are fixed-width and the positions are
     * within both vectors (ArrowBuf's per-value bounds checks cost more than the copy). Values
     * are copied in one loop per width and validity in a second pass, set in bulk when no row
     * can be NULL.
     */
    private static void copyRows(FieldVector source, int[] rows, int count, FieldVector target, int at, ValueLayout layout) {
        if (layout == ValueLayout.BIT) {
            copyBits(source, rows, count, target, at);
            return;
        }
        long from = source.getDataBuffer().memoryAddress();
        long to = target.getDataBuffer().memoryAddress();
        boolean anyMissing = false;
        if (rows == null) {
            MemoryUtil.copyMemory(from, to + (long) at * layout.byteWidth, (long) count * layout.byteWidth);
        } else if (layout == ValueLayout.INT32) {
            for (int i = 0; i < count; i++) {
                int row = rows[i];
                anyMissing |= row < 0;
                MemoryUtil.putInt(to + ((long) (at + i) << 2), row < 0 ? 0 : MemoryUtil.getInt(from + ((long) row << 2)));
            }
        } else if (layout == ValueLayout.INT128) {
            for (int i = 0; i < count; i++) {
                int row = rows[i];
                anyMissing |= row < 0;
                long target16 = to + ((long) (at + i) << 4);
                MemoryUtil.putLong(target16, row < 0 ? 0 : MemoryUtil.getLong(from + ((long) row << 4)));
                MemoryUtil.putLong(target16 + 8, row < 0 ? 0 : MemoryUtil.getLong(from + ((long) row << 4) + 8));
            }
        } else {
            for (int i = 0; i < count; i++) {
                int row = rows[i];
                anyMissing |= row < 0;
                MemoryUtil.putLong(to + ((long) (at + i) << 3), row < 0 ? 0 : MemoryUtil.getLong(from + ((long) row << 3)));
            }
        }
        long targetValidity = target.getValidityBuffer().memoryAddress();
        // Counting the source's nulls reads its whole validity buffer: for a few rows of a large
        // vector (a join's matches in a scanned batch) testing their own bits costs less.
        boolean sourceHasNulls = rows != null && count < source.getValueCount() >> 6 || source.getNullCount() > 0;
        if (!sourceHasNulls && !anyMissing) {
            setBits(targetValidity, at, count);
            return;
        }
        long sourceValidity = source.getValidityBuffer().memoryAddress();
        for (int i = 0; i < count; i++) {
            int row = rows == null ? i : rows[i];
            if (row >= 0 && (!sourceHasNulls || bit(sourceValidity, row))) {
                setBit(targetValidity, at + i);
            }
        }
    }

    private static void copyBits(FieldVector source, int[] rows, int count, FieldVector target, int at) {
        long sourceValidity = source.getValidityBuffer().memoryAddress();
        ArrowBuf sourceData = source.getDataBuffer();
        long targetValidity = target.getValidityBuffer().memoryAddress();
        ArrowBuf targetData = target.getDataBuffer();
        boolean sourceHasNulls = source.getNullCount() > 0;
        for (int i = 0; i < count; i++) {
            int row = rows == null ? i : rows[i];
            if (row < 0 || sourceHasNulls && !bit(sourceValidity, row)) {
                continue; // the target's validity bits start cleared: NULL
            }
            setBit(targetValidity, at + i);
            BitVectorHelper.setValidityBit(targetData, at + i, BitVectorHelper.get(sourceData, row));
        }
    }

    /** Sets bits {@code from .. from+count-1}: single bits up to a byte boundary, whole bytes after. */
    private static void setBits(long address, int from, int count) {
        int i = from;
        int end = from + count;
        while (i < end && (i & 7) != 0) {
            setBit(address, i++);
        }
        int wholeBytes = (end - i) >> 3;
        MemoryUtil.setMemory(address + (i >> 3), wholeBytes, (byte) 0xFF);
        i += wholeBytes << 3;
        while (i < end) {
            setBit(address, i++);
        }
    }

    private static boolean bit(long address, int index) {
        return (MemoryUtil.getByte(address + (index >> 3)) >> (index & 7) & 1) != 0;
    }

    private static void setBit(long address, int index) {
        long at = address + (index >> 3);
        MemoryUtil.putByte(at, (byte) (MemoryUtil.getByte(at) | 1 << (index & 7)));
    }

    /**
     * Takes over {@code batch} and returns its rows {@code rows[0 .. count)}, ascending: the batch
     * itself when they are all of its rows, null (the batch closed) when there are none, else a
     * new batch of those rows (the batch closed).
     */
    public static Batch keep(Batch batch, int[] rows, int count, BufferAllocator allocator) {
        if (count == batch.rowCount()) {
            return batch;
        }
        try (batch) {
            return count == 0 ? null : gather(batch, rows.length == count ? rows : Arrays.copyOf(rows, count), allocator);
        }
    }

    /** The given rows of every column of {@code batch}, as a new batch with the same dictionaries. */
    public static Batch gather(Batch batch, int[] rows, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(batch.columnCount());
        try {
            for (int c = 0; c < batch.columnCount(); c++) {
                vectors.add(gather(batch.vector(c), batch.schema().type(c), rows, allocator));
            }
            return new Batch(batch.schema(), vectors, batch.dictionaries(), rows.length);
        } catch (RuntimeException e) {
            closeAll(vectors);
            throw e;
        }
    }

    /** A vector over the first {@code rowCount} rows of {@code source} sharing its buffers (reference-counted). */
    public static FieldVector share(FieldVector source, int rowCount, BufferAllocator allocator) {
        TransferPair pair = source.getTransferPair(allocator);
        pair.splitAndTransfer(0, rowCount);
        return (FieldVector) pair.getTo();
    }

    /**
     * One batch with the rows of all {@code batches}, in order; takes them over (closes them).
     * A string column keeps its dictionary when all batches share it, else gets one merged,
     * deduplicated dictionary.
     */
    public static Batch concat(Schema schema, List<Batch> batches, BufferAllocator allocator) {
        if (batches.size() == 1) {
            return batches.get(0);
        }
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            int total = 0;
            for (Batch b : batches) {
                total += b.rowCount();
            }
            for (int c = 0; c < schema.size(); c++) {
                FieldVector out = Vectors.allocate(schema.field(c).name(), schema.type(c), total, allocator);
                vectors.add(out);
                if (schema.type(c).kind().isString()) {
                    dictionaries.add(concatCodes(batches, c, (IntVector) out));
                } else {
                    concatValues(batches, c, out, ValueLayout.of(schema.type(c)));
                    dictionaries.add(null);
                }
                out.setValueCount(total);
            }
            return new Batch(schema, vectors, dictionaries, total);
        } catch (RuntimeException e) {
            closeAll(vectors);
            throw e;
        } finally {
            batches.forEach(Batch::close);
        }
    }

    private static void concatValues(List<Batch> batches, int column, FieldVector out, ValueLayout layout) {
        int at = 0;
        for (Batch b : batches) {
            copyRows(b.vector(column), null, b.rowCount(), out, at, layout);
            at += b.rowCount();
        }
    }

    /** Copies the codes, remapped into one merged dictionary unless all batches share theirs; returns the dictionary. */
    private static StringDictionary concatCodes(List<Batch> batches, int column, IntVector out) {
        StringDictionary shared = batches.isEmpty() ? StringDictionary.EMPTY : batches.get(0).dictionary(column);
        for (Batch b : batches) {
            if (b.dictionary(column) != shared) {
                shared = null;
            }
        }
        StringDictionary.Builder merged = shared == null ? new StringDictionary.Builder() : null;
        Map<StringDictionary, int[]> remaps = new IdentityHashMap<>();
        int at = 0;
        for (Batch b : batches) {
            IntVector source = (IntVector) b.vector(column);
            StringDictionary dictionary = b.dictionary(column);
            int[] remap = merged == null ? null : remaps.computeIfAbsent(dictionary, d -> newRemap(d.size()));
            for (int i = 0; i < b.rowCount(); i++, at++) {
                if (source.isNull(i)) {
                    continue;
                }
                int code = source.get(i);
                if (remap != null) {
                    if (remap[code] < 0) {
                        remap[code] = merged.add(dictionary.get(code));
                    }
                    code = remap[code];
                }
                out.set(at, code);
            }
        }
        return merged == null ? shared : merged.build();
    }

    private static int[] newRemap(int size) {
        int[] remap = new int[size];
        Arrays.fill(remap, -1);
        return remap;
    }

    /** Closes every vector, even when one of them fails to close. */
    public static void closeAll(List<? extends AutoCloseable> resources) {
        RuntimeException failure = null;
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException re ? re : new RuntimeException(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
