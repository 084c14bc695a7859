package io.warpdb.fuzz.ast;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A function with the plain call syntax both engines share: UPPER, LOWER, CHAR_LENGTH, ABS, ROUND,
 * FLOOR, CEIL, COALESCE, NULLIF. CHAR_LENGTH is an INTEGER in WarpDB and a BIGINT in DuckDB, which
 * gets it cast, so that arithmetic on it overflows alike.
 */
public record FunctionCall(String name, List<Expr> args, SqlType type) implements Expr {
    @Override
    public String render(Dialect dialect) {
        String call = name + "(" + args.stream().map(a -> a.render(dialect)).collect(Collectors.joining(", ")) + ")";
        return dialect == Dialect.DUCKDB && name.equals("CHAR_LENGTH") ? "CAST(" + call + " AS INTEGER)" : call;
    }

    @Override
    public List<Node> children() {
        return List.copyOf(args);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new FunctionCall(name, children.stream().map(Expr.class::cast).toList(), type);
    }
}
