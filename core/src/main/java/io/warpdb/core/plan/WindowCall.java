package io.warpdb.core.plan;

import io.warpdb.core.expr.Expr;
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
