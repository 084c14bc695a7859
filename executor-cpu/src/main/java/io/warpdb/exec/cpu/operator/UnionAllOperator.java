package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/** UNION ALL: the batches of each input in turn, relabelled with the union's schema (buffers shared, not copied). */
final class UnionAllOperator extends Operator {
    private final int inputCount;
    private int current;

    UnionAllOperator(UnionNode node, List<BatchStream> inputs, ExecContext context) {
        super(context, node.schema(), inputs.toArray(new BatchStream[0]));
        this.inputCount = inputs.size();
    }

    @Override
    public Batch next() {
        while (current < inputCount) {
            Batch in = pullNonEmpty(input(current));
            if (in == null) {
                current++;
                continue;
            }
            try (in) {
                List<FieldVector> vectors = new ArrayList<>(in.columnCount());
                for (FieldVector v : in.vectors()) {
                    vectors.add(BatchRows.share(v, in.rowCount(), allocator()));
                }
                return new Batch(schema(), vectors, in.dictionaries(), in.rowCount());
            }
        }
        return null;
    }
}
