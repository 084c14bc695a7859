package io.warpdb.core.partition;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Hash partitioning on the CPU, the reference every {@link HashPartitioner} matches: {@link
 * #partsOf} hashes a key column at a time, {@link #split} copies fixed-width rows buffer to buffer.
 */
public final class CpuHashPartitioner implements HashPartitioner {
    static final CpuHashPartitioner INSTANCE = new CpuHashPartitioner();

    private CpuHashPartitioner() {
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public boolean available() {
        return true;
    }

    /** The hash of several keys: the previous keys' hash combined with the next key's. */
    private static int combine(int previous, int next) {
        return Murmur3.hashLong(((long) previous << 32) | (next & 0xffffffffL), SEED);
    }

    /** The hash of a 128-bit decimal's unscaled value by its two 64-bit words. */
    private static int hashWideDecimal(long low, long high) {
        return Murmur3.hashLong(low ^ Murmur3.hashLong(high, SEED), SEED);
    }

    /**
     * The part of every row of {@code batch}: the murmur3 hash of its keys (several combined) modulo
     * {@code parts}, 0 when a key is NULL; hashed a key column at a time (a typed loop over its
     * buffer, each string dictionary entry hashed once).
     */
    public static int[] partsOf(Batch batch, List<Integer> keys, int parts) {
        int rows = batch.rowCount();
        int[] hash = new int[rows];
        int[] column = keys.size() > 1 ? new int[rows] : hash;
        boolean[] nullKey = null;
        for (int i = 0; i < keys.size(); i++) {
            int key = keys.get(i);
            hashColumn(batch, key, i == 0 ? hash : column);
            if (i > 0) {
                for (int r = 0; r < rows; r++) {
                    hash[r] = combine(hash[r], column[r]);
                }
            }
            FieldVector v = batch.vector(key);
            if (v.getNullCount() > 0) {
                nullKey = nullKey == null ? new boolean[rows] : nullKey;
                for (int r = 0; r < rows; r++) {
                    nullKey[r] |= v.isNull(r);
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            hash[r] = nullKey != null && nullKey[r] ? 0 : Math.floorMod(hash[r], parts);
        }
        return hash;
    }

    /** The murmur3 hash of each value of {@code column} into {@code into} (whatever a NULL row's buffer holds: the caller places it). */
    private static void hashColumn(Batch batch, int column, int[] into) {
        FieldVector v = batch.vector(column);
        DataType type = batch.schema().type(column);
        int rows = batch.rowCount();
        ArrowBuf data = v.getDataBuffer();
        if (type.isWideDecimal()) {
            for (int r = 0; r < rows; r++) {
                into[r] = hashWideDecimal(data.getLong((long) r * 16), data.getLong((long) r * 16 + 8));
            }
            return;
        }
        switch (type.kind()) {
            case BOOLEAN -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(BitVectorHelper.get(data, r), SEED); // the bit, NULL or not
                }
            }
            case INTEGER, DATE -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(data.getInt((long) r * Integer.BYTES), SEED);
                }
            }
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(data.getLong((long) r * Long.BYTES), SEED);
                }
            }
            case DOUBLE -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(Double.doubleToLongBits(Double.longBitsToDouble(data.getLong((long) r * Long.BYTES)) + 0.0),
                            SEED);
                }
            }
            case VARCHAR, CHAR -> {
                // each entry of the dictionary hashed once, when a row first uses it
                StringDictionary dictionary = batch.dictionary(column);
                int[] byCode = new int[dictionary.size()];
                boolean[] hashed = new boolean[dictionary.size()];
                for (int r = 0; r < rows; r++) {
                    if (v.isNull(r)) {
                        continue; // its code may lie outside the dictionary
                    }
                    int code = data.getInt((long) r * Integer.BYTES);
                    if (!hashed[code]) {
                        hashed[code] = true;
                        byCode[code] = Murmur3.hashString(dictionary.get(code), SEED);
                    }
                    into[r] = byCode[code];
                }
            }
        }
    }

    @Override
    public List<Batch> split(Batch batch, List<Integer> keys, int parts, BufferAllocator allocator) {
        return split(batch, partsOf(batch, keys, parts), parts, allocator);
    }

    /**
     * The rows of {@code batch} as {@code parts} batches, row r in part {@code partOf[r]} (rows keep
     * their order within a part), allocated to {@code allocator}; the caller owns them.
     */
    public static List<Batch> split(Batch batch, int[] partOf, int parts, BufferAllocator allocator) {
        int[] start = new int[parts + 1];
        for (int part : partOf) {
            start[part + 1]++;
        }
        for (int p = 0; p < parts; p++) {
            start[p + 1] += start[p];
        }
        int[] order = new int[partOf.length];
        int[] next = Arrays.copyOf(start, parts);
        for (int r = 0; r < partOf.length; r++) {
            order[next[partOf[r]]++] = r;
        }
        List<Batch> result = new ArrayList<>(parts);
        try {
            for (int p = 0; p < parts; p++) {
                result.add(select(batch, order, start[p], start[p + 1] - start[p], allocator));
            }
        } catch (RuntimeException e) {
            result.forEach(Batch::close);
            throw e;
        }
        return result;
    }

    /** All rows of {@code batch} as a new batch (a copy, not a slice) sharing its dictionaries. */
    public static Batch copy(Batch batch, BufferAllocator allocator) {
        int[] all = new int[batch.rowCount()];
        Arrays.setAll(all, r -> r);
        return select(batch, all, 0, all.length, allocator);
    }

    /** Rows {@code rows[from, from + count)} of {@code batch} as a new batch sharing its dictionaries. */
    public static Batch select(Batch batch, int[] rows, int from, int count, BufferAllocator allocator) {
        Schema schema = batch.schema();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                FieldVector to = Vectors.allocate(schema.field(c).name(), schema.type(c), count, allocator);
                vectors.add(to);
                copyRows(batch.vector(c), rows, from, count, to);
                to.setValueCount(count);
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, batch.dictionaries(), count);
    }

    /** Copies the rows into {@code to}, which has room for them: buffer to buffer for fixed-width values, a copy call per value else. */
    private static void copyRows(FieldVector from, int[] rows, int offset, int count, FieldVector to) {
        if (!(from instanceof BaseFixedWidthVector fixed) || from instanceof BitVector) {
            for (int i = 0; i < count; i++) {
                to.copyFromSafe(rows[offset + i], i, from);
            }
            return;
        }
        int width = fixed.getTypeWidth();
        ArrowBuf src = from.getDataBuffer();
        ArrowBuf dst = to.getDataBuffer();
        switch (width) {
            case Long.BYTES -> {
                for (int i = 0; i < count; i++) {
                    dst.setLong((long) i * Long.BYTES, src.getLong((long) rows[offset + i] * Long.BYTES));
                }
            }
            case Integer.BYTES -> {
                for (int i = 0; i < count; i++) {
                    dst.setInt((long) i * Integer.BYTES, src.getInt((long) rows[offset + i] * Integer.BYTES));
                }
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    dst.setBytes((long) i * width, src, (long) rows[offset + i] * width, width);
                }
            }
        }
        ArrowBuf validity = to.getValidityBuffer();
        if (from.getNullCount() == 0) {
            validity.setOne(0, (count + 7) / 8);
        } else {
            for (int i = 0; i < count; i++) {
                if (!from.isNull(rows[offset + i])) {
                    BitVectorHelper.setBit(validity, i);
                }
            }
        }
    }
}
