package io.warpdb.fuzz.ast;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** {@code x [NOT] IN (v1, v2, ...)}. */
public record InList(Expr arg, List<Expr> values, boolean negated) implements Expr {
    @Override
    public SqlType type() {
        return SqlType.BOOLEAN;
    }

    @Override
    public String render(Dialect dialect) {
        return "(" + arg.render(dialect) + (negated ? " NOT IN (" : " IN (")
                + values.stream().map(v -> v.render(dialect)).collect(Collectors.joining(", ")) + "))";
    }

    @Override
    public List<Node> children() {
        return Nodes.concat(values, arg);
    }

    @Override
    public Node withChildren(List<Node> children) {
        List<Expr> v = children.subList(0, values.size()).stream().map(Expr.class::cast).toList();
        return new InList((Expr) children.get(values.size()), v, negated);
    }

    /** The list without one of its values. */
    @Override
    public List<Node> simplifications() {
        List<Node> out = new ArrayList<>();
        for (int i = 0; values.size() > 1 && i < values.size(); i++) {
            List<Expr> v = new ArrayList<>(values);
            v.remove(i);
            out.add(new InList(arg, v, negated));
        }
        return out;
    }
}
