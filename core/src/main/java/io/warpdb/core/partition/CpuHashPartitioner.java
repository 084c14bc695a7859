package io.warpdb.core.partition;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;

/** Hash partitioning on the CPU, row by row: the reference every {@link HashPartitioner} matches. */
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

    /** The part of a row of {@code batch}: 0 when a key is NULL. */
    public static int partOf(Batch batch, List<Integer> keys, int row, int parts) {
        int hash = 0;
        for (int i = 0; i < keys.size(); i++) {
            int column = keys.get(i);
            if (batch.vector(column).isNull(row)) {
                return 0;
            }
            int h = hash(batch, column, row);
            hash = i == 0 ? h : combine(hash, h);
        }
        return Math.floorMod(hash, parts);
    }

    /** The hash of several keys: the previous keys' hash combined with the next key's. */
    private static int combine(int previous, int next) {
        return Murmur3.hashLong(((long) previous << 32) | (next & 0xffffffffL), SEED);
    }

    /** The hash of a 128-bit decimal's unscaled value by its two 64-bit words. */
    private static int hashWideDecimal(long low, long high) {
        return Murmur3.hashLong(low ^ Murmur3.hashLong(high, SEED), SEED);
    }

    /** The murmur3 hash of a non-NULL value. */
    private static int hash(Batch batch, int column, int row) {
        FieldVector v = batch.vector(column);
        DataType type = batch.schema().type(column);
        if (type.isWideDecimal()) {
            return hashWideDecimal(v.getDataBuffer().getLong((long) row * 16), v.getDataBuffer().getLong((long) row * 16 + 8));
        }
        return switch (type.kind()) {
            case BOOLEAN -> Murmur3.hashLong(((BitVector) v).get(row), SEED);
            case INTEGER -> Murmur3.hashLong(((IntVector) v).get(row), SEED);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> Murmur3.hashLong(((BigIntVector) v).get(row), SEED);
            case DATE -> Murmur3.hashLong(((DateDayVector) v).get(row), SEED);
            case DOUBLE -> Murmur3.hashLong(Double.doubleToLongBits(((Float8Vector) v).get(row) + 0.0), SEED);
            case VARCHAR, CHAR -> Murmur3.hashString(batch.dictionary(column).get(((IntVector) v).get(row)), SEED);
        };
    }

    @Override
    public List<Batch> split(Batch batch, List<Integer> keys, int parts, BufferAllocator allocator) {
        List<List<Integer>> rows = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            rows.add(new ArrayList<>());
        }
        for (int r = 0; r < batch.rowCount(); r++) {
            rows.get(partOf(batch, keys, r, parts)).add(r);
        }
        List<Batch> out = new ArrayList<>(parts);
        try {
            for (List<Integer> partRows : rows) {
                out.add(select(batch, partRows, allocator));
            }
        } catch (RuntimeException e) {
            out.forEach(Batch::close);
            throw e;
        }
        return out;
    }

    /** The given rows of {@code batch} as a new batch sharing its dictionaries. */
    public static Batch select(Batch batch, List<Integer> rows, BufferAllocator allocator) {
        Schema schema = batch.schema();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                FieldVector from = batch.vector(c);
                FieldVector to = Vectors.allocate(schema.field(c).name(), schema.type(c), rows.size(), allocator);
                vectors.add(to);
                for (int i = 0; i < rows.size(); i++) {
                    to.copyFromSafe(rows.get(i), i, from);
                }
                to.setValueCount(rows.size());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, batch.dictionaries(), rows.size());
    }
}
