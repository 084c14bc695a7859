package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/**
 * A compiled expression: computes its value for every row of an input at once. Built by
 * {@link ExprCompiler}; evaluators may keep caches (per dictionary) and are used by one
 * operator, i.e. one thread, at a time.
 */
public interface Evaluator {
    /** The SQL type of the result; the columns {@link #evaluate} returns have this layout. */
    DataType type();

    /** The value for each row of {@code input}, as a column of {@code input.rowCount()} rows. */
    Column evaluate(EvalInput input);
}
