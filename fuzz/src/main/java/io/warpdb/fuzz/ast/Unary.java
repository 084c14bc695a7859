package io.warpdb.fuzz.ast;

import java.util.List;

/** NOT, negation and the IS [NOT] NULL/TRUE/FALSE tests. */
public record Unary(Op op, Expr arg, SqlType type) implements Expr {
    public enum Op {
        NOT("NOT ", ""), NEGATE("- ", ""), IS_NULL("", " IS NULL"), IS_NOT_NULL("", " IS NOT NULL"),
        IS_TRUE("", " IS TRUE"), IS_NOT_TRUE("", " IS NOT TRUE"), IS_FALSE("", " IS FALSE"), IS_NOT_FALSE("", " IS NOT FALSE");

        private final String prefix;
        private final String suffix;

        Op(String prefix, String suffix) {
            this.prefix = prefix;
            this.suffix = suffix;
        }
    }

    @Override
    public String render(Dialect dialect) {
        return "(" + op.prefix + arg.render(dialect) + op.suffix + ")";
    }

    @Override
    public List<Node> children() {
        return List.of(arg);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Unary(op, (Expr) children.get(0), type);
    }
}
