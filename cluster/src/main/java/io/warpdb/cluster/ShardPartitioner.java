package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
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
 * Hash partitioning on the CPU: splits a batch into one batch per shard by the murmur3 hash of
 * one or more key columns (a row with a NULL key goes to shard 0), keeping the rows' order within
 * each shard. One key column hashes as a table's distribution column does, so that a
 * repartitioned join's result lies as a table hashed on its key would. The GPU's shared-memory
 * scatter (seed 000 section 3.1) is to take this class's place for device batches.
 */
public final class ShardPartitioner {
    /** The seed of the hash that places rows on shards; another level (seed 000 section 5) must use another. */
    public static final int SHARD_SEED = 0;

    private final List<Integer> keys;
    private final int shards;

    public ShardPartitioner(int column, int shards) {
        this(List.of(column), shards);
    }

    /** Partitions by the combined hash of the {@code keys} columns. */
    public ShardPartitioner(List<Integer> keys, int shards) {
        this.keys = List.copyOf(keys);
        this.shards = shards;
    }

    /**
     * The shard of every row of {@code batch}, hashed a key column at a time (a typed loop over its
     * buffer, not a call per value): a row with a NULL key goes to shard 0.
     */
    public int[] shards(Batch batch) {
        int rows = batch.rowCount();
        int[] hash = new int[rows];
        int[] column = keys.size() > 1 ? new int[rows] : hash;
        boolean[] nullKey = null;
        for (int i = 0; i < keys.size(); i++) {
            int key = keys.get(i);
            int[] into = i == 0 ? hash : column;
            hashColumn(batch, key, into);
            if (i > 0) {
                for (int r = 0; r < rows; r++) {
                    hash[r] = Murmur3.hashLong(((long) hash[r] << 32) | (column[r] & 0xffffffffL), SHARD_SEED);
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
            hash[r] = nullKey != null && nullKey[r] ? 0 : Math.floorMod(hash[r], shards);
        }
        return hash;
    }

    /**
     * Whether values of {@code a} and {@code b} that compare equal hash alike here: the same
     * kind, any integer widths, strings of any length, decimals of one scale and width.
     */
    public static boolean hashesAlike(DataType a, DataType b) {
        if (a.kind() != b.kind()) {
            return (a.kind() == TypeKind.INTEGER || a.kind() == TypeKind.BIGINT) && (b.kind() == TypeKind.INTEGER || b.kind() == TypeKind.BIGINT);
        }
        return switch (a.kind()) {
            case DECIMAL -> a.scale() == b.scale() && a.isWideDecimal() == b.isWideDecimal();
            case CHAR -> a.precision() == b.precision();
            default -> true;
        };
    }

    /** The murmur3 hash of each value of {@code column} into {@code into} (whatever a NULL row's buffer holds: the caller places it). */
    private static void hashColumn(Batch batch, int column, int[] into) {
        FieldVector v = batch.vector(column);
        DataType type = batch.schema().type(column);
        int rows = batch.rowCount();
        ArrowBuf data = v.getDataBuffer();
        if (type.isWideDecimal()) {
            // decimal128: the low word, then the high word
            for (int r = 0; r < rows; r++) {
                long low = data.getLong((long) r * 16);
                long high = data.getLong((long) r * 16 + 8);
                into[r] = Murmur3.hashLong(low ^ Murmur3.hashLong(high, SHARD_SEED), SHARD_SEED);
            }
            return;
        }
        switch (type.kind()) {
            case BOOLEAN -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(BitVectorHelper.get(data, r), SHARD_SEED); // the bit, NULL or not
                }
            }
            case INTEGER, DATE -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(data.getInt((long) r * Integer.BYTES), SHARD_SEED);
                }
            }
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(data.getLong((long) r * Long.BYTES), SHARD_SEED);
                }
            }
            case DOUBLE -> {
                for (int r = 0; r < rows; r++) {
                    into[r] = Murmur3.hashLong(Double.doubleToLongBits(Double.longBitsToDouble(data.getLong((long) r * Long.BYTES)) + 0.0),
                            SHARD_SEED);
                }
            }
            case VARCHAR, CHAR -> {
                // each entry of the dictionary hashed once, when a row first uses it
                StringDictionary dictionary = batch.dictionary(column);
                int[] byCode = new int[dictionary.size()];
                boolean[] hashed = new boolean[dictionary.size()];
                for (int r = 0; r < rows; r++) {
                    int code = data.getInt((long) r * Integer.BYTES);
                    if (v.isNull(r)) {
                        continue; // its code may lie outside the dictionary
                    }
                    if (!hashed[code]) {
                        hashed[code] = true;
                        byCode[code] = Murmur3.hashString(dictionary.get(code), SHARD_SEED);
                    }
                    into[r] = byCode[code];
                }
            }
        }
    }

    /** One batch per shard (empty ones included), allocated to {@code allocator}; the caller owns them. */
    public List<Batch> split(Batch batch, BufferAllocator allocator) {
        return split(batch, shards(batch), shards, allocator);
    }

    /**
     * The rows of {@code batch} as {@code parts} batches, row r in part {@code partOf[r]} (rows keep
     * their order within a part), allocated to {@code allocator}; the caller owns them.
     */
    static List<Batch> split(Batch batch, int[] partOf, int parts, BufferAllocator allocator) {
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
    static Batch copy(Batch batch, BufferAllocator allocator) {
        int[] all = new int[batch.rowCount()];
        Arrays.setAll(all, r -> r);
        return select(batch, all, 0, all.length, allocator);
    }

    /** Rows {@code rows[from, from + count)} of {@code batch} as a new batch sharing its dictionaries. */
    private static Batch select(Batch batch, int[] rows, int from, int count, BufferAllocator allocator) {
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
