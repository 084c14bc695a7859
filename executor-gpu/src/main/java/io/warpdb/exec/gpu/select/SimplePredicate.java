package io.warpdb.exec.gpu.select;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import java.util.ArrayList;
import java.util.List;

/**
 * A predicate that is a conjunction of {@code column <op> constant} terms over numbers and dates
 * of the constant's exact form (a literal or an expression that reads no column), which the
 * SELECT kernel evaluates without the interpreter. As a filter, a NULL term drops the row, which
 * is what the conjunction's three-valued result does.
 */
record SimplePredicate(List<Term> terms) {
    /** One term; {@code kind} 0 = int32, 1 = int64, 2 = double bits; {@code cmp} as the kernel's compareResult. */
    record Term(int column, int kind, int cmp, long constant) {
    }

    static final int LONGS_PER_TERM = 3;

    /**
     * The predicate's terms, or null when it has another shape. A constant may be an expression
     * that reads no column ({@code DATE '1998-12-01' - INTERVAL '90' DAY}): {@code entries} (null:
     * none) evaluates it once on the host, with the CPU executor's semantics.
     */
    static SimplePredicate of(Expr predicate, List<DataType> inputTypes, EntryEvaluator entries) {
        List<Term> terms = new ArrayList<>();
        return collect(predicate, inputTypes, entries, terms) ? new SimplePredicate(List.copyOf(terms)) : null;
    }

    private static boolean collect(Expr e, List<DataType> inputTypes, EntryEvaluator entries, List<Term> terms) {
        if (!(e instanceof Call call)) {
            return false;
        }
        if (call.op() == Op.AND) {
            return call.args().stream().allMatch(a -> collect(a, inputTypes, entries, terms));
        }
        int cmp = ProgramCompiler.comparisonCode(call.op());
        if (cmp < 0) {
            return false;
        }
        Expr left = call.arg(0);
        Expr right = call.arg(1);
        if (!(left instanceof ColumnRef) && right instanceof ColumnRef) {
            Expr t = left;
            left = right;
            right = t;
            cmp = mirrored(cmp);
        }
        if (!(left instanceof ColumnRef ref) || ProgramCompiler.readsColumn(right)) {
            return false;
        }
        DataType column = inputTypes.get(ref.index());
        DataType constant = right.type();
        if (column.isWideDecimal() || constant.isWideDecimal()) {
            return false; // 128-bit values: the interpreter compares them
        }
        int kind = switch (column.kind()) {
            case INTEGER, DATE -> 0;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> 1;
            case DOUBLE -> 2;
            default -> -1;
        };
        // Dates, timestamps and intervals compare only with their own kind (days are not microseconds).
        boolean sameForm = kind >= 0 && (column.kind() == TypeKind.DOUBLE
                ? constant.kind() == TypeKind.DOUBLE
                : !column.kind().isExactNumeric() ? constant.kind() == column.kind()
                : constant.kind().isExactNumeric()
                        && constant.kind() != TypeKind.DOUBLE && Decimals.scaleOf(constant) == Decimals.scaleOf(column));
        Long bits = sameForm ? constantBits(right, entries) : null;
        if (bits == null) {
            return false;
        }
        terms.add(new Term(ref.index(), kind, cmp, bits));
        return true;
    }

    /** A constant's value as the kernel compares it (doubles as their bits); null when it is NULL or cannot be known here. */
    private static Long constantBits(Expr constant, EntryEvaluator entries) {
        if (constant instanceof Literal literal) {
            return literal.value() instanceof Double d ? Double.doubleToRawLongBits(d) : (Long) literal.value();
        }
        return entries == null ? null : entries.constantValue(constant);
    }

    /** {@code c op x} as {@code x op' c}. */
    private static int mirrored(int cmp) {
        return switch (cmp) {
            case 2 -> 4;
            case 3 -> 5;
            case 4 -> 2;
            case 5 -> 3;
            default -> cmp;
        };
    }

    /** The terms as the kernel's SimpleTerm structs (int column, int kind, int cmp, int pad, long constant). */
    long[] encode() {
        long[] out = new long[Math.max(1, terms.size()) * LONGS_PER_TERM];
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            out[i * LONGS_PER_TERM] = (long) t.kind() << 32 | (t.column() & 0xffffffffL);
            out[i * LONGS_PER_TERM + 1] = t.cmp();
            out[i * LONGS_PER_TERM + 2] = t.constant();
        }
        return out;
    }
}
