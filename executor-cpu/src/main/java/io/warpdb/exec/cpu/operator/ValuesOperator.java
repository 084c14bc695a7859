package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/** Constant rows, in batches of up to {@link #MAX_BATCH_ROWS}; string columns get a fresh dictionary per batch. */
final class ValuesOperator extends Operator {
    private final List<List<Literal>> rows;
    private int nextRow;

    ValuesOperator(ValuesNode node, ExecContext context) {
        super(context, node.schema());
        this.rows = node.rows();
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        if (nextRow >= rows.size()) {
            return null;
        }
        int count = Math.min(MAX_BATCH_ROWS, rows.size() - nextRow);
        Schema schema = schema();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                DataType type = schema.type(c);
                FieldVector vector = Vectors.allocate(schema.field(c).name(), type, count, allocator());
                vectors.add(vector);
                StringDictionary.Builder strings = type.kind().isString() ? new StringDictionary.Builder() : null;
                for (int r = 0; r < count; r++) {
                    Object value = rows.get(nextRow + r).get(c).value();
                    boolean isString = strings != null && value != null;
                    Vectors.setNormalized(vector, type, r, isString ? strings.add((String) value) : value);
                }
                vector.setValueCount(count);
                dictionaries.add(strings == null ? null : strings.build());
            }
        } catch (RuntimeException e) {
            BatchRows.closeAll(vectors);
            throw e;
        }
        nextRow += count;
        return new Batch(schema, vectors, dictionaries, count);
    }
}
