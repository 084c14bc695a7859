package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.List;

/**
 * {@code SUBSTRING(s, 1, n) IN ('v1', 'v2', ...)} without computing the substrings: a value of n
 * characters matches the strings it starts; a shorter one only the string equal to it (whose
 * substring is the whole string); a longer one none. TPC-H Q22 tests the country code of every
 * customer's phone: per dictionary entry, which for a column of distinct values is per row, the
 * substring and its dictionary cost an allocation and a hash insert each. Same NULL semantics
 * as {@link InEvaluator}.
 */
final class PrefixInEvaluator implements Evaluator {
    private final Evaluator strings;
    private final int length;
    private final DataType type;
    /** The values of exactly {@link #length} characters: prefixes to look for. */
    private final String[] prefixes;
    /** The shorter values: whole strings to look for. */
    private final String[] shorter;
    private final boolean hasNullValue;

    PrefixInEvaluator(Evaluator strings, int length, List<Literal> values, DataType type) {
        this.strings = strings;
        this.length = length;
        this.type = type;
        this.hasNullValue = values.stream().anyMatch(Literal::isNull);
        List<String> present = values.stream().filter(v -> !v.isNull()).map(v -> (String) v.value()).toList();
        this.prefixes = present.stream().filter(v -> characters(v) == length).toArray(String[]::new);
        this.shorter = present.stream().filter(v -> characters(v) < length).toArray(String[]::new);
    }

    private static int characters(String s) {
        return s.codePointCount(0, s.length());
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = strings.evaluate(input);
        int rows = a.size();
        long[] out = new long[rows];
        boolean[] nulls = a.nulls() == null ? null : a.nulls().clone();
        for (int i = 0; i < rows; i++) {
            if (a.isNull(i)) {
                continue;
            }
            if (matches(a.string(i))) {
                out[i] = 1;
            } else if (hasNullValue) {
                if (nulls == null) {
                    nulls = new boolean[rows];
                }
                nulls[i] = true;
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    private boolean matches(String s) {
        for (String prefix : prefixes) {
            if (s.startsWith(prefix)) {
                return true;
            }
        }
        for (String whole : shorter) {
            if (s.equals(whole)) {
                return true;
            }
        }
        return false;
    }
}
