package io.warpdb.fuzz.ast;

import java.util.List;

/**
 * Two FROM items joined. CROSS and COMMA joins have no condition. A COMMA join binds looser than
 * the others, so the generator puts COMMA joins only above other joins, never below.
 */
public record Join(Kind kind, From left, From right, Expr condition) implements From {
    public enum Kind {
        INNER("INNER JOIN"), LEFT("LEFT JOIN"), RIGHT("RIGHT JOIN"), FULL("FULL JOIN"), CROSS("CROSS JOIN"), COMMA(",");

        public final String sql;

        Kind(String sql) {
            this.sql = sql;
        }

        public boolean hasCondition() {
            return this != CROSS && this != COMMA;
        }
    }

    @Override
    public String render(Dialect dialect) {
        String joined = left.render(dialect) + (kind == Kind.COMMA ? ", " : " " + kind.sql + " ") + right.render(dialect);
        return condition == null ? joined : joined + " ON " + condition.render(dialect);
    }

    @Override
    public List<Node> children() {
        return Nodes.present(left, right, condition);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Join(kind, (From) children.get(0), (From) children.get(1), condition != null ? (Expr) children.get(2) : null);
    }

    /** An INNER join instead of an outer one. */
    @Override
    public List<Node> simplifications() {
        return kind == Kind.LEFT || kind == Kind.RIGHT || kind == Kind.FULL ? List.of(new Join(Kind.INNER, left, right, condition))
                : List.of();
    }
}
