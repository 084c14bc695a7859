package io.warpdb.core.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.Pow10;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;

/** Walks over expression trees. */
public final class Exprs {
    private Exprs() {
    }

    /** Calls {@code action} with the index of every column the expression reads. */
    public static void forEachColumn(Expr e, IntConsumer action) {
        if (e instanceof ColumnRef ref) {
            action.accept(ref.index());
        } else if (e instanceof Call call) {
            call.args().forEach(a -> forEachColumn(a, action));
        }
    }

    /**
     * The call's only argument that is not a literal, when it is a string; else null. For an
     * operator that maps each string on its own, such a call can run once per dictionary entry.
     */
    public static Expr soleStringArgument(Call call) {
        Expr found = null;
        for (Expr arg : call.args()) {
            if (!(arg instanceof Literal)) {
                if (found != null) {
                    return null;
                }
                found = arg;
            }
        }
        return found != null && found.type().kind().isString() ? found : null;
    }

    /** Adds to {@code out} the operands of a nest of {@code op} calls (AND, OR), left to right. */
    public static void flatten(Expr e, Op op, java.util.List<Expr> out) {
        if (e instanceof Call call && call.op() == op) {
            call.args().forEach(a -> flatten(a, op, out));
        } else {
            out.add(e);
        }
    }

    /** Whether evaluating {@code e} can raise an error for some row ({@link Op#mayRaise}). */
    public static boolean mayRaise(Expr e) {
        return e instanceof Call call && (call.op().mayRaise() || call.args().stream().anyMatch(Exprs::mayRaise));
    }

    /**
     * The conjuncts of a filter condition in the order every executor evaluates them: those that
     * cannot raise an error first, then the others, each group as written; a conjunct is evaluated
     * only for the rows the ones before it kept. SQL fixes no order, but one order for all
     * executors gives one answer: {@code a / b > 1 AND b <> 0} skips the rows where b is 0 on each.
     */
    public static java.util.List<Expr> conjunctsInEvaluationOrder(Expr condition) {
        java.util.List<Expr> conjuncts = new java.util.ArrayList<>();
        flatten(condition, Op.AND, conjuncts);
        java.util.List<Expr> ordered = new java.util.ArrayList<>(conjuncts.stream().filter(c -> !mayRaise(c)).toList());
        conjuncts.stream().filter(Exprs::mayRaise).forEach(ordered::add);
        return ordered;
    }

    /** {@code condition} with its conjuncts in {@link #conjunctsInEvaluationOrder}, as a left-deep AND. */
    public static Expr inEvaluationOrder(Expr condition) {
        return conjunctsInEvaluationOrder(condition).stream().reduce((a, b) -> Call.of(Op.AND, condition.type(), a, b)).orElseThrow();
    }

    /** The expression with every column index {@code i} replaced by {@code mapping.applyAsInt(i)}. */
    public static Expr remap(Expr e, IntUnaryOperator mapping) {
        if (e instanceof ColumnRef ref) {
            return new ColumnRef(mapping.applyAsInt(ref.index()), ref.type());
        }
        if (e instanceof Call call) {
            return new Call(call.op(), call.args().stream().map(a -> remap(a, mapping)).toList(), call.type());
        }
        return e;
    }

    /**
     * AVG of {@code type} from a SUM and a COUNT of its argument (rolled up from finer groups,
     * merged from a cluster's shards). For exact sums the unscaled sum and count * 10^scale are
     * divided as doubles, the one rounding of {@link ExactQuotients}'s common case; dividing the
     * DECIMAL as a double would round twice.
     */
    public static Expr average(Expr sum, Expr count, DataType type) {
        Expr numerator = sum;
        Expr denominator = count;
        int scale = sum.type().kind() == TypeKind.DECIMAL ? sum.type().scale() : 0;
        if (scale > 0) {
            Literal power = Literal.ofLong(Pow10.of(scale), DataType.BIGINT);
            // A SUM typed DECIMAL(38, s) keeps its unscaled value in 128 bits.
            DataType unscaled = sum.type().isWideDecimal() ? DataType.decimal(DataType.MAX_WIDE_DECIMAL_PRECISION, 0) : DataType.BIGINT;
            numerator = Call.of(Op.MULTIPLY, unscaled, sum, power);
            denominator = Call.of(Op.MULTIPLY, DataType.BIGINT, count, power);
        }
        if (sum.type().kind() != TypeKind.DOUBLE) {
            numerator = Call.of(Op.CAST, DataType.DOUBLE, numerator);
        }
        return Call.of(Op.DIVIDE, type, numerator, Call.of(Op.CAST, DataType.DOUBLE, denominator));
    }
}
