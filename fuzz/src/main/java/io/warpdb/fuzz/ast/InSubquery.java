package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code x [NOT] IN (SELECT c ...)}. */
public record InSubquery(Expr arg, Query query, boolean negated) implements Expr {
    @Override
    public SqlType type() {
        return SqlType.BOOLEAN;
    }

    @Override
    public String render(Dialect dialect) {
        return "(" + arg.render(dialect) + (negated ? " NOT IN (" : " IN (") + query.render(dialect) + "))";
    }

    @Override
    public List<Node> children() {
        return List.of(arg, query);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new InSubquery((Expr) children.get(0), (Query) children.get(1), negated);
    }
}
