package io.warpdb.exec.gpu.sort;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.partition.HostTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;

/**
 * The merge step of the external merge sort: sorted runs in host memory (each sorted stably on
 * the device) merged k ways on the host into one order, ties going to the earlier run, so that
 * the merge of runs cut from the input in input order is a stable sort of the whole input, as the
 * CPU executor's sort is. Keys compare as the CPU orders them: strings by value (runs have
 * dictionaries of their own), doubles as numbers with -0.0 equal to 0.0 and NaN last, FALSE before
 * TRUE, NULLs first or last as the key says whatever the direction. Rows are copied into new
 * batches (string columns re-encoded into one dictionary per batch).
 */
public final class SortedRunMerge {
    /** Rows per output batch. */
    static final int BATCH_ROWS = 1 << 16;

    private SortedRunMerge() {
    }

    /**
     * Rows [offset, offset + limit) (limit -1: all) of the merge of {@code runs} (tables of
     * {@code schema}, each sorted by {@code keys}; they stay owned by the caller) as a new table.
     */
    public static HostTable merge(Schema schema, List<HostTable> runs, List<SortKey> keys, long offset, long limit,
            BufferAllocator allocator) {
        List<Run> sorted = new ArrayList<>(runs.size());
        for (HostTable run : runs) {
            if (run.rows() > 0) {
                sorted.add(new Run(run, keys));
            }
        }
        PriorityQueue<Run> heads = new PriorityQueue<>(Math.max(1, sorted.size()), (a, b) -> {
            int c = compareHeads(a, b, keys);
            return c != 0 ? c : Integer.compare(a.index, b.index);
        });
        for (int i = 0; i < sorted.size(); i++) {
            sorted.get(i).index = i;
            heads.add(sorted.get(i));
        }
        List<Batch> out = new ArrayList<>();
        try {
            long skip = Math.max(0, offset);
            long left = limit < 0 ? Long.MAX_VALUE : limit;
            int[] fromRun = new int[BATCH_ROWS];
            int[] fromRow = new int[BATCH_ROWS];
            int filled = 0;
            while (!heads.isEmpty() && left > 0) {
                Run run = heads.poll();
                if (skip > 0) {
                    skip--;
                } else {
                    fromRun[filled] = run.index;
                    fromRow[filled] = run.head;
                    filled++;
                    left--;
                    if (filled == BATCH_ROWS) {
                        out.add(gather(schema, sorted, fromRun, fromRow, filled, allocator));
                        filled = 0;
                    }
                }
                if (++run.head < run.rows) {
                    heads.add(run);
                }
            }
            if (filled > 0) {
                out.add(gather(schema, sorted, fromRun, fromRow, filled, allocator));
            }
            return new HostTable(schema, out);
        } catch (RuntimeException e) {
            out.forEach(Batch::close);
            throw e;
        }
    }

    /** One sorted run: its sort keys read into arrays, where each row lies, and the merge's position in it. */
    private static final class Run {
        final HostTable table;
        final int rows;
        /** Per key: the values as longs ordered as SQL orders them (null for string and wide DECIMAL keys). */
        final long[][] ordered;
        /** Per key: the values of a string key (null for other keys). */
        final String[][] strings;
        /** Per key: the values of a wide DECIMAL key (null for other keys). */
        final BigDecimal[][] decimals;
        /** Per key: which rows are NULL. */
        final boolean[][] nulls;
        /** Per row: its batch, and its row in that batch. */
        final int[] batchOf;
        final int[] rowOf;
        int index;
        int head;

        Run(HostTable table, List<SortKey> keys) {
            this.table = table;
            this.rows = Math.toIntExact(table.rows());
            this.ordered = new long[keys.size()][];
            this.strings = new String[keys.size()][];
            this.decimals = new BigDecimal[keys.size()][];
            this.nulls = new boolean[keys.size()][];
            this.batchOf = new int[rows];
            this.rowOf = new int[rows];
            int at = 0;
            List<Batch> batches = table.batches();
            for (int b = 0; b < batches.size(); b++) {
                for (int r = 0; r < batches.get(b).rowCount(); r++) {
                    batchOf[at] = b;
                    rowOf[at] = r;
                    at++;
                }
            }
            for (int k = 0; k < keys.size(); k++) {
                read(k, keys.get(k).column(), table.schema().type(keys.get(k).column()), batches);
            }
        }

        private void read(int k, int column, DataType type, List<Batch> batches) {
            boolean isString = type.kind().isString();
            boolean isWide = type.isWideDecimal();
            long[] values = isString || isWide ? null : new long[rows];
            String[] texts = isString ? new String[rows] : null;
            BigDecimal[] wide = isWide ? new BigDecimal[rows] : null;
            boolean[] isNull = new boolean[rows];
            int at = 0;
            for (Batch batch : batches) {
                FieldVector v = batch.vector(column);
                StringDictionary dictionary = batch.dictionary(column);
                for (int r = 0; r < batch.rowCount(); r++, at++) {
                    if (v.isNull(r)) {
                        isNull[at] = true;
                    } else if (isString) {
                        texts[at] = dictionary.get(((IntVector) v).get(r));
                    } else if (isWide) {
                        wide[at] = ((DecimalVector) v).getObject(r);
                    } else {
                        values[at] = orderedValue(v, type, r);
                    }
                }
            }
            ordered[k] = values;
            strings[k] = texts;
            decimals[k] = wide;
            nulls[k] = isNull;
        }
    }

    /** A non-NULL value of a non-string column as a long whose order is the SQL order. */
    public static long orderedValue(FieldVector v, DataType type, int row) {
        return switch (type.kind()) {
            case BOOLEAN -> ((BitVector) v).get(row);
            case INTEGER -> ((IntVector) v).get(row);
            case DATE -> ((DateDayVector) v).get(row);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> ((BigIntVector) v).get(row);
            case DOUBLE -> orderedDouble(((Float8Vector) v).get(row));
            case VARCHAR, CHAR -> throw new IllegalArgumentException("string keys compare by value");
        };
    }

    /**
     * The bits of a double arranged to sort as numbers (negative magnitudes flipped), -0.0 as 0.0
     * since the two are equal (they tie and later keys decide), NaN above every number: the CPU
     * executor's order ({@code RowOrder.sortable}).
     */
    static long orderedDouble(double d) {
        long bits = d == 0 ? 0 : Double.doubleToLongBits(d);
        return bits ^ (bits >> 63 & Long.MAX_VALUE);
    }

    private static int compareHeads(Run a, Run b, List<SortKey> keys) {
        int ra = a.head;
        int rb = b.head;
        for (int k = 0; k < keys.size(); k++) {
            boolean aNull = a.nulls[k][ra];
            boolean bNull = b.nulls[k][rb];
            if (aNull || bNull) {
                if (aNull != bNull) {
                    return aNull == keys.get(k).nullsFirst() ? -1 : 1;
                }
                continue;
            }
            int c = a.strings[k] != null ? a.strings[k][ra].compareTo(b.strings[k][rb])
                    : a.decimals[k] != null ? a.decimals[k][ra].compareTo(b.decimals[k][rb])
                    : Long.compare(a.ordered[k][ra], b.ordered[k][rb]);
            if (c != 0) {
                return keys.get(k).descending() ? -c : c;
            }
        }
        return 0;
    }

    /** The rows (run, row) as a new batch: values copied, strings re-encoded into one dictionary per column. */
    private static Batch gather(Schema schema, List<Run> runs, int[] fromRun, int[] fromRow, int count, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                DataType type = schema.type(c);
                FieldVector target = Vectors.allocate(schema.field(c).name(), type, count, allocator);
                vectors.add(target);
                StringDictionary.Builder entries = type.kind().isString() ? new StringDictionary.Builder() : null;
                for (int i = 0; i < count; i++) {
                    Run run = runs.get(fromRun[i]);
                    int row = run.rowOf[fromRow[i]];
                    Batch batch = run.table.batches().get(run.batchOf[fromRow[i]]);
                    FieldVector source = batch.vector(c);
                    if (entries == null) {
                        target.copyFromSafe(row, i, source);
                    } else if (source.isNull(row)) {
                        target.setNull(i);
                    } else {
                        ((IntVector) target).setSafe(i, entries.add(batch.dictionary(c).get(((IntVector) source).get(row))));
                    }
                }
                target.setValueCount(count);
                dictionaries.add(entries == null ? null : entries.build());
            }
            return new Batch(schema, vectors, dictionaries, count);
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
    }
}
