package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;

/**
 * x IN (v1, v2, ...) over constant values: TRUE when x equals one of them; otherwise NULL if a
 * value is NULL (x might equal it), else FALSE; NULL when x is NULL. The values are prepared
 * once into x's domain: a sorted array searched per row, or a set of strings (which
 * {@link ExprCompiler} probes once per dictionary entry).
 */
final class InEvaluator implements Evaluator {
    private final Evaluator x;
    private final DataType type;
    private final boolean hasNullValue;
    /** The values as x's unscaled longs (exact, DATE, BOOLEAN), sorted; values x can never equal are left out. */
    private long[] longValues;
    private double[] doubleValues;
    private Set<String> stringValues;

    InEvaluator(Evaluator x, List<Literal> values, DataType type) {
        this.x = x;
        this.type = type;
        this.hasNullValue = values.stream().anyMatch(Literal::isNull);
        List<Literal> present = values.stream().filter(v -> !v.isNull()).toList();
        present.forEach(v -> checkComparable(v, x.type()));
        TypeKind kind = x.type().kind();
        if (kind.isString()) {
            stringValues = present.stream().map(v -> (String) v.value()).collect(Collectors.toSet());
        } else if (kind == TypeKind.DOUBLE || present.stream().anyMatch(v -> v.type().kind() == TypeKind.DOUBLE)) {
            doubleValues = present.stream().mapToDouble(InEvaluator::asDouble).map(d -> d == 0 ? 0.0 : d).sorted().toArray();
        } else {
            longValues = present.stream().map(v -> inScaleOf(v, x.type())).filter(Objects::nonNull)
                    .mapToLong(Long::longValue).sorted().toArray();
        }
    }

    private static void checkComparable(Literal v, DataType xType) {
        TypeKind a = xType.kind();
        TypeKind b = v.type().kind();
        boolean comparable = a.isString() ? b.isString() : a.isNumeric() ? b.isNumeric() : a == b;
        if (!comparable) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH,
                    "IN list value " + v + " cannot be compared with " + xType.sqlName());
        }
    }

    private static double asDouble(Literal v) {
        return v.value() instanceof Double d ? d : Decimals.toDouble((Long) v.value(), Decimals.scaleOf(v.type()));
    }

    /** The value unscaled at x's scale, or null when no value of x can equal it (more digits, or too large). */
    private static Long inScaleOf(Literal v, DataType xType) {
        long value = v.value() instanceof Boolean b ? (b ? 1 : 0) : (Long) v.value();
        if (!xType.kind().isExactNumeric()) {
            return value;
        }
        try {
            BigDecimal exact = BigDecimal.valueOf(value, Decimals.scaleOf(v.type())).setScale(Decimals.scaleOf(xType));
            return exact.unscaledValue().bitLength() > 63 ? null : exact.unscaledValue().longValue();
        } catch (ArithmeticException needsRounding) {
            return null;
        }
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = x.evaluate(input);
        return membership(a, type, hasNullValue, row -> contains(a, row));
    }

    /**
     * SQL's truth of {@code a IN (...)} per row, given which rows equal a value of the list: TRUE
     * for those; NULL for NULL rows, and for the others when the list holds a NULL; else FALSE.
     */
    static Column membership(Column a, DataType type, boolean hasNullValue, IntPredicate isMember) {
        int rows = a.size();
        long[] out = new long[rows];
        boolean[] nulls = a.nulls() == null ? null : a.nulls().clone();
        for (int i = 0; i < rows; i++) {
            if (a.isNull(i)) {
                continue;
            }
            if (isMember.test(i)) {
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

    private boolean contains(Column a, int row) {
        if (stringValues != null) {
            return stringValues.contains(a.string(row));
        }
        if (doubleValues != null) {
            double v = a.isDouble() ? a.doubles()[row] : Decimals.toDouble(a.longs()[row], Decimals.scaleOf(a.type()));
            return Arrays.binarySearch(doubleValues, v == 0 ? 0.0 : v) >= 0;
        }
        return Arrays.binarySearch(longValues, a.longs()[row]) >= 0;
    }
}
