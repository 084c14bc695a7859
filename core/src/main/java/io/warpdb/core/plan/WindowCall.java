package io.warpdb.core.plan;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import java.util.List;

/**
 * One call of a {@link WindowNode}: the function over {@code args}, each an input column
 * ({@link io.warpdb.core.expr.ColumnRef}) or a constant ({@link io.warpdb.core.expr.Literal}),
 * seeing {@code frame}, producing {@code type}. Arguments by function: LAG/LEAD (value, offset
 * constant, default), NTILE (bucket count constant), NTH_VALUE (value, position constant),
 * COUNT_STAR and the ranking functions none, the others one value.
 */
public record WindowCall(WindowFunction function, List<Expr> args, WindowFrame frame, DataType type, String name) {
    public WindowCall {
        args = List.copyOf(args);
    }

    /**
     * The whole number argument {@code index} (LAG's offset, NTILE's buckets, NTH_VALUE's place),
     * which must be a non-NULL constant of at least {@code min}; {@code fallback} when the call has
     * no such argument. Every executor reads it so, with the same errors.
     */
    public long constantArgument(int index, long fallback, long min) {
        if (args.size() <= index) {
            return fallback;
        }
        Expr arg = args.get(index);
        if (!(arg instanceof Literal literal) || !(literal.value() instanceof Long)) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    function + " with an argument that is not a constant integer is not supported yet");
        }
        long value = (Long) literal.value();
        if (value < min) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                    "argument of " + function + " must be at least " + min + ", not " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(function.name()).append('(');
        for (int i = 0; i < args.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(args.get(i));
        }
        sb.append(')');
        return function.usesFrame() ? sb.append(' ').append(frame).toString() : sb.toString();
    }
}
