package io.warpdb.exec.cpu.expr;

import io.warpdb.core.batch.Batch;
import io.warpdb.exec.cpu.column.ArrowColumns;
import io.warpdb.exec.cpu.column.Column;

/** The rows of an Arrow batch; each column is read from its vector once, when first referenced. */
public final class BatchInput implements EvalInput {
    private final Batch batch;
    private final Column[] loaded;

    public BatchInput(Batch batch) {
        this.batch = batch;
        this.loaded = new Column[batch.columnCount()];
    }

    @Override
    public int rowCount() {
        return batch.rowCount();
    }

    @Override
    public Column column(int index) {
        if (loaded[index] == null) {
            loaded[index] = ArrowColumns.read(batch, index);
        }
        return loaded[index];
    }

    /** Reads only {@code rows} from the vector unless the whole column is already loaded. */
    @Override
    public Column gathered(int index, int[] rows) {
        return loaded[index] != null ? loaded[index].gather(rows) : ArrowColumns.read(batch, index, rows);
    }
}
