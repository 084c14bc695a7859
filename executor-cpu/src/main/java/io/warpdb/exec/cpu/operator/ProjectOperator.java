package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.column.ArrowColumns;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Computes one output column per expression. A bare column reference shares the input vector's
 * buffers (no copy); other expressions are evaluated over the batch and written to new vectors.
 */
final class ProjectOperator extends Operator {
    private final List<Expr> exprs;
    /** Per output column: its evaluator, or null when it passes an input column through. */
    private final List<Evaluator> evaluators = new ArrayList<>();

    ProjectOperator(ProjectNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        this.exprs = node.exprs();
        for (int i = 0; i < exprs.size(); i++) {
            Expr e = exprs.get(i);
            evaluators.add(e instanceof ColumnRef ? null : ExprCompiler.compile(e, node.schema().type(i)));
        }
    }

    @Override
    public Batch next() {
        try (Batch in = pull(input(0))) {
            if (in == null) {
                return null;
            }
            Schema schema = schema();
            BatchInput values = new BatchInput(in);
            List<FieldVector> vectors = new ArrayList<>(schema.size());
            List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
            try {
                for (int i = 0; i < exprs.size(); i++) {
                    if (evaluators.get(i) == null) {
                        int source = ((ColumnRef) exprs.get(i)).index();
                        vectors.add(BatchRows.share(in.vector(source), in.rowCount(), allocator()));
                        dictionaries.add(in.dictionary(source));
                    } else {
                        Column result = evaluators.get(i).evaluate(values);
                        vectors.add(ArrowColumns.write(result, schema.type(i), schema.field(i).name(), allocator()));
                        dictionaries.add(result.dictionary());
                    }
                }
                return new Batch(schema, vectors, dictionaries, in.rowCount());
            } catch (RuntimeException e) {
                BatchRows.closeAll(vectors);
                throw e;
            }
        }
    }
}
