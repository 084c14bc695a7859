package io.warpdb.exec.gpu.expr;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.warpdb.core.types.TypeKind;

/**
 * A per-entry result as the interpreter's lookup tables hold it: for BOOLEAN 0/1, 2 for NULL, 3 for
 * a failing entry; for strings the result's code, -1 NULL, -2 failing; for numbers a NULL/failure
 * flag per entry (0 value, 1 NULL, 2 failing), the values beside it in {@code values}. Made once per
 * {@link EntryEvaluator.EntryValues}, which the entry evaluator keeps per dictionary: a query over a
 * column seen before (a LIKE over 15 million comments) places its table without a pass over every
 * entry. The arrays are shared: nothing may change them.
 *
 * @param values the numbers' values by entry; null for BOOLEAN and string results
 */
record EntryTable(int[] table, long[] values, boolean anyNull) {
    private static final Cache<EntryEvaluator.EntryValues, EntryTable> BY_VALUES =
            Caffeine.newBuilder().weakKeys().maximumSize(1024).build();

    /** The table of {@code perEntry}, a result of kind {@code kind}. */
    static EntryTable of(EntryEvaluator.EntryValues perEntry, TypeKind kind) {
        return BY_VALUES.get(perEntry, values -> encode(values, kind));
    }

    private static EntryTable encode(EntryEvaluator.EntryValues perEntry, TypeKind kind) {
        long[] values = perEntry.values();
        boolean[] nulls = perEntry.nulls();
        int[] table = new int[values.length];
        boolean anyNull = false;
        for (int i = 0; i < values.length; i++) {
            boolean isNull = nulls[i];
            boolean fails = perEntry.fails(i);
            anyNull |= isNull;
            if (kind == TypeKind.BOOLEAN) {
                table[i] = fails ? 3 : isNull ? 2 : (int) values[i];
            } else if (kind.isString()) {
                table[i] = fails ? -2 : isNull ? -1 : (int) values[i];
            } else {
                table[i] = fails ? 2 : isNull ? 1 : 0;
            }
        }
        return new EntryTable(table, kind == TypeKind.BOOLEAN || kind.isString() ? null : values, anyNull);
    }
}
