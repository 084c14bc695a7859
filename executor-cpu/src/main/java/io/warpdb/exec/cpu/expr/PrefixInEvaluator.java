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
 * as {@link InEvaluator#membership}.
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
        return InEvaluator.membership(a, type, hasNullValue, row -> matches(a.string(row)));
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
