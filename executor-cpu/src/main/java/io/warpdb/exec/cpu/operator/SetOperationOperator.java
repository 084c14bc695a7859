package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.SetOpKind;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import io.warpdb.exec.cpu.hash.KeyTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * UNION (distinct), INTERSECT and EXCEPT by hashing whole rows: every column is encoded as for
 * GROUP BY and a {@link KeyTable} numbers the distinct rows (NULL equal to NULL, strings by
 * value across the inputs' dictionaries). INTERSECT and EXCEPT first count the right input's
 * copies of each row, then stream the left input, keeping each row as many times as the kind
 * allows; UNION streams the left input and then the right one, keeping first occurrences.
 */
final class SetOperationOperator extends Operator {
    private final SetOpKind kind;
    private final boolean all;
    private final List<KeyEncoder> encoders = new ArrayList<>();
    private final KeyTable rows;
    /** Per distinct row: copies in the right input (INTERSECT, EXCEPT). */
    private int[] rightCopies = new int[1024];
    /** Per distinct row: copies of the streamed input seen (or, for UNION, output) so far. */
    private int[] seen = new int[1024];
    private boolean rightCounted;
    /** The input being streamed: 0, then for UNION 1. */
    private int streaming;

    SetOperationOperator(SetOpNode node, BatchStream left, BatchStream right, ExecContext context) {
        super(context, node.schema(), left, right);
        this.kind = node.kind();
        this.all = node.all();
        for (int c = 0; c < node.schema().size(); c++) {
            DataType type = node.schema().type(c);
            encoders.add(KeyEncoder.forGrouping(type,
                    type.kind().isString() || type.isWideDecimal() ? new StringDictionary.Builder() : null));
        }
        this.rows = new KeyTable(node.schema().size());
    }

    @Override
    public Batch next() {
        if (kind != SetOpKind.UNION && !rightCounted) {
            Batch batch;
            while ((batch = pullNonEmpty(input(1))) != null) {
                try (Batch b = batch) {
                    for (int id : rowIds(b)) {
                        rightCopies[id]++;
                    }
                }
            }
            rightCounted = true;
        }
        while (true) {
            Batch in = pullNonEmpty(input(streaming));
            if (in == null) {
                if (kind == SetOpKind.UNION && streaming == 0) {
                    streaming = 1;
                    continue;
                }
                return null;
            }
            try (in) {
                int[] ids = rowIds(in);
                int[] kept = new int[ids.length];
                int count = 0;
                for (int r = 0; r < ids.length; r++) {
                    if (keep(ids[r])) {
                        kept[count++] = r;
                    }
                }
                if (count > 0) {
                    return output(in, Arrays.copyOf(kept, count));
                }
            }
        }
    }

    /** Whether the next copy of distinct row {@code id} in the streamed input is output. */
    private boolean keep(int id) {
        int copies = rightCopies[id];
        return switch (kind) {
            case UNION -> seen[id]++ == 0;
            case INTERSECT -> all ? seen[id]++ < copies : copies > 0 && seen[id]++ == 0;
            case EXCEPT -> all ? ++seen[id] > copies : copies == 0 && seen[id]++ == 0;
        };
    }

    /** Each row's distinct-row number, the counters grown to cover new ones. */
    private int[] rowIds(Batch batch) {
        int n = batch.rowCount();
        BatchInput input = new BatchInput(batch);
        long[][] keys = new long[encoders.size()][n];
        boolean[][] nulls = new boolean[encoders.size()][];
        for (int c = 0; c < encoders.size(); c++) {
            Column column = input.column(c);
            encoders.get(c).encode(column, keys[c], null);
            nulls[c] = column.nulls();
        }
        int[] ids = new int[n];
        rows.add(keys, nulls, null, ids, null);
        if (rows.size() > seen.length) {
            int size = Math.max(rows.size(), 2 * seen.length);
            seen = Arrays.copyOf(seen, size);
            rightCopies = Arrays.copyOf(rightCopies, size);
        }
        return ids;
    }

    private Batch output(Batch in, int[] kept) {
        List<FieldVector> vectors = new ArrayList<>(in.columnCount());
        try {
            for (int c = 0; c < in.columnCount(); c++) {
                vectors.add(BatchRows.gather(in.vector(c), in.schema().type(c), kept, allocator()));
            }
            return new Batch(schema(), vectors, in.dictionaries(), kept.length);
        } catch (RuntimeException e) {
            BatchRows.closeAll(vectors);
            throw e;
        }
    }
}
