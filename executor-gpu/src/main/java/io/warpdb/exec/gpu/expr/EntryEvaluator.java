package io.warpdb.exec.gpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;

/**
 * Evaluates an expression once per entry of a string dictionary (the entry is column 0 of type
 * {@code entryType}). String functions, LIKE, casts and comparisons with constants thus run once
 * per distinct string on the host, with the CPU executor's semantics, and reach the GPU as lookup
 * tables indexed by code.
 */
public interface EntryEvaluator {
    EntryValues evaluate(Expr overEntries, DataType entryType, StringDictionary dictionary);

    /**
     * Evaluates an expression over the columns of {@code combinations} once per row: the distinct
     * combinations of values that a string function reads (CONCAT(a, b), CAST(n AS VARCHAR)), on the device.
     */
    EntryValues evaluateCombinations(Expr overColumns, DeviceTable combinations, DeviceWork work);

    /**
     * The value of {@code constant}, an expression that reads no column, as the interpreter holds
     * it (evaluated once, over a one-entry dictionary it ignores); null when it is NULL or raises an
     * error, which then stays the rows' to raise.
     */
    default Long constantValue(Expr constant) {
        EntryValues value = evaluate(constant, DataType.VARCHAR, StringDictionary.ofDistinct(List.of("")));
        return value.nulls()[0] ? null : value.values()[0];
    }

    /**
     * The result per entry: the value as the interpreter holds it (booleans 0/1, numbers and dates
     * as longs, doubles as raw bits, strings as codes into {@code dictionary}), whether it is NULL,
     * and the error an entry raises (a bad CAST), which only a row that uses it must see; null
     * when no entry fails.
     */
    record EntryValues(long[] values, boolean[] nulls, WarpException[] errors, StringDictionary dictionary) {
        public boolean fails(int entry) {
            return errors != null && errors[entry] != null;
        }
    }
}
