package io.warpdb.fuzz.ast;

import java.util.List;

/** A sub-query in FROM: {@code (SELECT ...) AS d1}; its columns are named like the query's. */
public record DerivedTable(Query query, String alias) implements From {
    @Override
    public String render(Dialect dialect) {
        return "(" + query.render(dialect) + ") AS " + alias;
    }

    @Override
    public List<Node> children() {
        return List.of(query);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new DerivedTable((Query) children.get(0), alias);
    }
}
