package io.warpdb.fuzz.ast;

import java.util.List;

/** A table (or a WITH query) by name, with an alias: {@code t0 AS a1}. */
public record TableRef(String table, String alias) implements From {
    @Override
    public String render(Dialect dialect) {
        return table + " AS " + alias;
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
