package io.warpdb.core.expr;

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
}
