package io.warpdb.fuzz.ast;

import java.util.ArrayList;
import java.util.List;

/** {@code (left) UNION|INTERSECT|EXCEPT [ALL] (right)}; columns named like the left query's. */
public record SetOperation(Op op, boolean all, Query left, Query right) implements Query {
    public enum Op { UNION, INTERSECT, EXCEPT }

    @Override
    public String render(Dialect dialect) {
        return "(" + left.render(dialect) + ") " + op + (all ? " ALL" : "") + " (" + right.render(dialect) + ")";
    }

    @Override
    public List<String> columnNames() {
        return left.columnNames();
    }

    @Override
    public List<SqlType> columnTypes() {
        List<SqlType> l = left.columnTypes();
        List<SqlType> r = right.columnTypes();
        List<SqlType> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            out.add(i < r.size() && l.get(i).family() == r.get(i).family() ? TypeRules.common(l.get(i), r.get(i)) : l.get(i));
        }
        return out;
    }

    @Override
    public boolean totallyOrdered() {
        return false;
    }

    @Override
    public List<Node> children() {
        return List.of(left, right);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new SetOperation(op, all, (Query) children.get(0), (Query) children.get(1));
    }

    /** UNION ALL instead of the other operations and of UNION. */
    @Override
    public List<Node> simplifications() {
        return op == Op.UNION && all ? List.of() : List.of(new SetOperation(Op.UNION, true, left, right));
    }
}
