package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import java.util.List;

/**
 * Evaluates per-dictionary-entry expressions with the CPU executor, so string functions have
 * exactly one implementation; the GPU only ever sees the resulting lookup tables.
 */
final class CpuEntryEvaluator implements EntryEvaluator {
    private final ExecContext context;

    CpuEntryEvaluator(ExecContext context) {
        this.context = context;
    }

    @Override
    public Batch evaluate(Expr overEntries, DataType entryType, StringDictionary dictionary) {
        ScanNode entries = ScanNode.of(new DictionaryEntries(entryType, dictionary), List.of(0));
        ProjectNode plan = new ProjectNode(entries, List.of(overEntries), Schema.of(new Field("value", overEntries.type())));
        try (BatchStream stream = context.runOn("cpu", plan)) {
            Batch result = stream.next();
            Batch extra = stream.next();
            if (extra != null) {
                extra.close();
                result.close();
                throw new WarpException(SqlState.INTERNAL_ERROR, "per-entry evaluation returned several batches");
            }
            return result;
        }
    }
}
