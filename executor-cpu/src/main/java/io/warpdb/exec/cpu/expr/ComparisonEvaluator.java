package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/**
 * EQ, NE, LT, LE, GT, GE (NULL when either side is NULL) and IS [NOT] DISTINCT FROM (never
 * NULL). Exact numbers of any scales compare exactly; DOUBLE against any number in double;
 * strings by value; DATE by day; BOOLEAN with FALSE < TRUE. The rows are first compared into a
 * sign per row, then the sign is tested, so each value domain has one loop.
 */
final class ComparisonEvaluator implements Evaluator {
    private enum Domain { EXACT, WIDE, DOUBLE, STRING }

    private final Op op;
    private final Evaluator left;
    private final Evaluator right;
    private final Domain domain;
    private final DataType type;

    ComparisonEvaluator(Op op, Evaluator left, Evaluator right, DataType type) {
        this.op = op;
        this.left = left;
        this.right = right;
        this.type = type;
        this.domain = domainOf(left.type(), right.type());
    }

    private static Domain domainOf(DataType a, DataType b) {
        if (a.kind().isString() && b.kind().isString()) {
            return Domain.STRING;
        }
        if (a.kind().isNumeric() && b.kind().isNumeric()) {
            if (a.kind() == TypeKind.DOUBLE || b.kind() == TypeKind.DOUBLE) {
                return Domain.DOUBLE;
            }
            return a.isWideDecimal() || b.isWideDecimal() ? Domain.WIDE : Domain.EXACT;
        }
        if (a.kind() == b.kind()) {
            return Domain.EXACT; // DATE, BOOLEAN: plain longs at scale 0
        }
        throw new WarpException(SqlState.DATATYPE_MISMATCH, "cannot compare " + a.sqlName() + " with " + b.sqlName());
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = left.evaluate(input);
        Column b = right.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(a, b);
        int[] signs = compare(a, b, nulls);
        long[] out = new long[signs.length];
        if (op == Op.IS_DISTINCT_FROM || op == Op.IS_NOT_DISTINCT_FROM) {
            long whenSame = op == Op.IS_NOT_DISTINCT_FROM ? 1 : 0;
            for (int i = 0; i < out.length; i++) {
                boolean same = nulls != null && nulls[i] ? a.isNull(i) == b.isNull(i) : signs[i] == 0;
                out[i] = same ? whenSame : 1 - whenSame;
            }
            return Column.ofLongs(type, out, null);
        }
        for (int i = 0; i < out.length; i++) {
            out[i] = test(signs[i]) ? 1 : 0;
        }
        return Column.ofLongs(type, out, nulls);
    }

    private boolean test(int sign) {
        return switch (op) {
            case EQ -> sign == 0;
            case NE -> sign != 0;
            case LT -> sign < 0;
            case LE -> sign <= 0;
            case GT -> sign > 0;
            case GE -> sign >= 0;
            default -> throw new IllegalStateException(op + " is not a comparison");
        };
    }

    /** Sign of a[i] compared with b[i] for rows where neither is NULL (0 elsewhere). */
    private int[] compare(Column a, Column b, boolean[] nulls) {
        int rows = a.size();
        int[] signs = new int[rows];
        switch (domain) {
            case EXACT -> {
                long[] x = a.longs();
                long[] y = b.longs();
                int xScale = Decimals.scaleOf(a.type());
                int yScale = Decimals.scaleOf(b.type());
                for (int i = 0; i < rows; i++) {
                    signs[i] = xScale == yScale ? Long.compare(x[i], y[i]) : Decimals.compare(x[i], xScale, y[i], yScale);
                }
            }
            case WIDE -> {
                Int128 x = new Int128();
                Int128 y = new Int128();
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        signs[i] = WideValues.compare(a, b, i, x, y);
                    }
                }
            }
            case DOUBLE -> {
                double[] x = a.toDoubles();
                double[] y = b.toDoubles();
                for (int i = 0; i < rows; i++) {
                    // == first so that 0.0 equals -0.0; Double.compare orders NaN above all, equal to itself.
                    signs[i] = x[i] == y[i] ? 0 : Double.compare(x[i], y[i]);
                }
            }
            case STRING -> {
                // One unique dictionary on both sides: equal codes are exactly equal strings.
                boolean codesDecideEquality = a.dictionary() == b.dictionary() && a.dictionary().isUnique()
                        && (op == Op.EQ || op == Op.NE || op == Op.IS_DISTINCT_FROM || op == Op.IS_NOT_DISTINCT_FROM);
                long[] x = a.longs();
                long[] y = b.longs();
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        signs[i] = codesDecideEquality ? Long.compare(x[i], y[i]) : a.string(i).compareTo(b.string(i));
                    }
                }
            }
        }
        return signs;
    }
}
