package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code x [NOT] BETWEEN low AND high}. */
public record Between(Expr arg, Expr low, Expr high, boolean negated) implements Expr {
    @Override
    public SqlType type() {
        return SqlType.BOOLEAN;
    }

    @Override
    public String render(Dialect dialect) {
        return "(" + arg.render(dialect) + (negated ? " NOT BETWEEN " : " BETWEEN ") + low.render(dialect) + " AND "
                + high.render(dialect) + ")";
    }

    @Override
    public List<Node> children() {
        return List.of(arg, low, high);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Between((Expr) children.get(0), (Expr) children.get(1), (Expr) children.get(2), negated);
    }
}
