package io.warpdb.core.expr;

import io.warpdb.core.types.DataType;
import java.util.List;
import java.util.stream.Collectors;

/** An operator applied to arguments; see {@link Op} for each operator's argument layout. */
public record Call(Op op, List<Expr> args, DataType type) implements Expr {
    public Call {
        args = List.copyOf(args);
    }

    public static Call of(Op op, DataType type, Expr... args) {
        return new Call(op, List.of(args), type);
    }

    public Expr arg(int i) {
        return args.get(i);
    }

    @Override
    public String toString() {
        if (op == Op.CAST) {
            return "CAST(" + args.get(0) + " AS " + type.sqlName() + ")";
        }
        return op.name() + args.stream().map(Object::toString).collect(Collectors.joining(", ", "(", ")"));
    }
}
