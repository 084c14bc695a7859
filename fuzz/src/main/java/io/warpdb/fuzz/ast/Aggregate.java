package io.warpdb.fuzz.ast;

import java.util.ArrayList;
import java.util.List;

/** {@code FN([DISTINCT] arg) [FILTER (WHERE p)]}, or {@code COUNT(*)} when arg is null. */
public record Aggregate(Function function, boolean distinct, Expr arg, Expr filter, SqlType type) implements Expr {
    public enum Function { COUNT, SUM, AVG, MIN, MAX }

    @Override
    public String render(Dialect dialect) {
        String call = function + "(" + (arg == null ? "*" : (distinct ? "DISTINCT " : "") + arg.render(dialect)) + ")";
        if (filter != null) {
            call += " FILTER (WHERE " + filter.render(dialect) + ")";
        }
        // SUM of a DECIMAL has 38 digits on both sides, but DuckDB's common type of one with another
        // DECIMAL drops fraction digits (CASE, UNION) and the generator's types keep to 18 digits:
        // the sum is cast to the 18 digits of its type on both sides.
        if (function == Function.SUM && type.kind() == SqlType.Kind.DECIMAL) {
            call = "CAST(" + call + " AS " + type.sql() + ")";
        }
        return call;
    }

    @Override
    public List<Node> children() {
        return Nodes.present(arg, filter);
    }

    @Override
    public Node withChildren(List<Node> children) {
        Nodes.Reader r = new Nodes.Reader(children);
        Expr a = r.nextIf(arg != null);
        return new Aggregate(function, distinct, a, r.nextIf(filter != null), type);
    }

    /** Without DISTINCT, without FILTER. */
    @Override
    public List<Node> simplifications() {
        List<Node> out = new ArrayList<>();
        if (distinct) {
            out.add(new Aggregate(function, false, arg, filter, type));
        }
        if (filter != null) {
            out.add(new Aggregate(function, distinct, arg, null, type));
        }
        return out;
    }
}
