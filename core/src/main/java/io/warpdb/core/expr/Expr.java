package io.warpdb.core.expr;

import io.warpdb.core.types.DataType;

/**
 * A scalar expression over the columns of one input row. Immutable; the same tree can be
 * evaluated by any executor. Column references are positional ({@link ColumnRef#index()}).
 */
public sealed interface Expr permits ColumnRef, Literal, Call {
    /** The SQL type of the result, including whether it can be NULL. */
    DataType type();
}
