package io.warpdb.fuzz.ast;

import java.util.List;

/** A column of a FROM item, always qualified: {@code a1.c0}. */
public record ColumnRef(String qualifier, String name, SqlType type) implements Expr {
    @Override
    public String render(Dialect dialect) {
        return qualifier + "." + name;
    }

    @Override
    public List<Node> children() {
        return List.of();
    }

    @Override
    public Node withChildren(List<Node> children) {
        return this;
    }
}
