package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Aggregate;
import io.warpdb.fuzz.ast.CaseWhen;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.From;
import io.warpdb.fuzz.ast.Literal;
import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Query;
import io.warpdb.fuzz.ast.Select;
import io.warpdb.fuzz.ast.SelectItem;
import io.warpdb.fuzz.ast.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * A NoREC case: rows of {@code from} (restricted by {@code where}, the join conditions of comma
 * joins, or null) and a predicate p. The optimisable {@code SELECT COUNT(*) ... WHERE p} must
 * count as many rows as {@code SELECT SUM(CASE WHEN p THEN 1 ELSE 0 END) ...}, where p is a
 * value computed for every row and so cannot steer the plan.
 */
public record NoRecCase(From from, Expr where, Expr predicate) implements OracleCase {
    public Select optimized() {
        Aggregate count = new Aggregate(Aggregate.Function.COUNT, false, null, null, SqlType.BIGINT);
        return Select.of(List.of(new SelectItem(count, "x0")), from).withWhere(QueryGenerator.and(where, predicate));
    }

    public Select unoptimized() {
        Expr flag = new CaseWhen(null, List.of(predicate), List.of(new Literal(1, SqlType.INTEGER)), new Literal(0, SqlType.INTEGER),
                SqlType.INTEGER);
        Aggregate sum = new Aggregate(Aggregate.Function.SUM, false, flag, null, SqlType.BIGINT);
        return Select.of(List.of(new SelectItem(sum, "x0")), from).withWhere(where);
    }

    @Override
    public List<Query> queries() {
        return List.of(optimized(), unoptimized());
    }

    @Override
    public List<Node> children() {
        List<Node> out = new ArrayList<>(List.of(from, predicate));
        if (where != null) {
            out.add(where);
        }
        return out;
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new NoRecCase((From) children.get(0), where != null ? (Expr) children.get(2) : null, (Expr) children.get(1));
    }

    /** Without the WHERE conditions. */
    @Override
    public List<Node> simplifications() {
        return where == null ? List.of() : List.of(new NoRecCase(from, null, predicate));
    }
}
