package io.warpdb.fuzz.ast;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code CASE [operand] WHEN w THEN t ... [ELSE e] END}; with an operand the WHENs are values
 * compared with it, without one they are conditions.
 */
public record CaseWhen(Expr operand, List<Expr> whens, List<Expr> thens, Expr otherwise, SqlType type) implements Expr {
    @Override
    public String render(Dialect dialect) {
        StringBuilder sb = new StringBuilder("CASE");
        if (operand != null) {
            sb.append(' ').append(operand.render(dialect));
        }
        for (int i = 0; i < whens.size(); i++) {
            sb.append(" WHEN ").append(whens.get(i).render(dialect)).append(" THEN ").append(thens.get(i).render(dialect));
        }
        if (otherwise != null) {
            sb.append(" ELSE ").append(otherwise.render(dialect));
        }
        return sb.append(" END").toString();
    }

    @Override
    public List<Node> children() {
        List<Node> out = new ArrayList<>(Nodes.present(operand));
        for (int i = 0; i < whens.size(); i++) {
            out.add(whens.get(i));
            out.add(thens.get(i));
        }
        out.addAll(Nodes.present(otherwise));
        return out;
    }

    @Override
    public Node withChildren(List<Node> children) {
        Nodes.Reader r = new Nodes.Reader(children);
        Expr op = r.nextIf(operand != null);
        List<Expr> w = new ArrayList<>();
        List<Expr> t = new ArrayList<>();
        for (int i = 0; i < whens.size(); i++) {
            w.add(r.next());
            t.add(r.next());
        }
        return new CaseWhen(op, w, t, r.nextIf(otherwise != null), type);
    }

    /** Fewer WHEN branches, and no ELSE. */
    @Override
    public List<Node> simplifications() {
        List<Node> out = new ArrayList<>();
        for (int i = 0; whens.size() > 1 && i < whens.size(); i++) {
            List<Expr> w = new ArrayList<>(whens);
            List<Expr> t = new ArrayList<>(thens);
            w.remove(i);
            t.remove(i);
            out.add(new CaseWhen(operand, w, t, otherwise, type));
        }
        if (otherwise != null) {
            out.add(new CaseWhen(operand, whens, thens, null, type));
        }
        return out;
    }
}
