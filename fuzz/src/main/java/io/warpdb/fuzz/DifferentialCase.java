package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Query;
import java.util.List;

/** One query, run on WarpDB and on DuckDB. */
public record DifferentialCase(Query query) implements OracleCase {
    @Override
    public List<Query> queries() {
        return List.of(query);
    }

    @Override
    public List<Node> children() {
        return List.of(query);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new DifferentialCase((Query) children.get(0));
    }
}
