package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code (SELECT ...)} as a value: a query of one column that returns at most one row. */
public record ScalarSubquery(Query query) implements Expr {
    @Override
    public SqlType type() {
        return query.columnTypes().get(0);
    }

    @Override
    public String render(Dialect dialect) {
        return "(" + query.render(dialect) + ")";
    }

    @Override
    public List<Node> children() {
        return List.of(query);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new ScalarSubquery((Query) children.get(0));
    }
}
