package io.warpdb.exec.gpu.expr;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.DataType;

/**
 * Evaluates an expression once per entry of a string dictionary (the entry is column 0 of type
 * {@code entryType}); the result batch has one row per entry. String functions, LIKE and
 * comparisons with constants thus run once per distinct string on the host, with the CPU
 * executor's semantics, and reach the GPU as lookup tables indexed by code.
 */
public interface EntryEvaluator {
    Batch evaluate(Expr overEntries, DataType entryType, StringDictionary dictionary);
}
