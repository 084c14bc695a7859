package io.warpdb.fuzz.ast;

import java.util.ArrayList;
import java.util.List;

/** {@code FN([DISTINCT] arg) [FILTER (WHERE p)]}, or {@code COUNT(*)} when arg is null. */
public record Aggregate(Function function, boolean distinct, Expr arg, Expr filter, SqlType type) implements Expr {
    public enum Function { COUNT, SUM, AVG, MIN, MAX }

    @Override
    public String render(Dialect dialect) {
        String call = function + "(" + (arg == null ? "*" : (distinct ? "DISTINCT " : "") + arg.render(dialect)) + ")";
        return filter == null ? call : call + " FILTER (WHERE " + filter.render(dialect) + ")";
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
