package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Aggregate;
import io.warpdb.fuzz.ast.ColumnRef;
import io.warpdb.fuzz.ast.DerivedTable;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Query;
import io.warpdb.fuzz.ast.Select;
import io.warpdb.fuzz.ast.SelectItem;
import io.warpdb.fuzz.ast.SetOperation;
import io.warpdb.fuzz.ast.SqlType;
import io.warpdb.fuzz.ast.TypeRules;
import io.warpdb.fuzz.ast.Unary;
import java.util.List;

/**
 * A Ternary Logic Partitioning case: a query {@code base} and a predicate {@code p}. Every row
 * (or group) makes exactly one of p, NOT p, p IS NULL true, so the base query's answer equals
 * the combination of its three partitions (see {@link Variant}).
 */
public record TlpCase(Variant variant, Select base, Expr predicate) implements OracleCase {
    /** Which part of the query is partitioned, and how the partitions combine. */
    public enum Variant {
        /** {@code Q} = {@code Q WHERE p UNION ALL Q WHERE NOT p UNION ALL Q WHERE p IS NULL}. */
        WHERE,
        /** {@code SELECT DISTINCT}: the partitions combine with UNION. */
        DISTINCT,
        /** {@code SELECT keys ... GROUP BY keys}: partitions of the rows, combined with UNION. */
        GROUP_BY,
        /** A grouped query: the HAVING clause is partitioned, combined with UNION ALL. */
        HAVING,
        /** {@code SELECT MIN|MAX|SUM|COUNT(x)}: the partitions' aggregates aggregated again (COUNT by SUM). */
        AGGREGATE
    }

    /** The alias of the partitions' union in the AGGREGATE variant. */
    private static final String UNION_ALIAS = "tlp";

    /** The query as generated. */
    public Query original() {
        return base;
    }

    /** The union of the three partitions. */
    public Query partitioned() {
        List<Expr> parts = List.of(predicate, new Unary(Unary.Op.NOT, predicate, SqlType.BOOLEAN),
                new Unary(Unary.Op.IS_NULL, predicate, SqlType.BOOLEAN));
        List<Select> branches = parts.stream()
                .map(p -> variant == Variant.HAVING ? base.withHaving(p) : base.withWhere(QueryGenerator.and(base.where(), p)))
                .toList();
        boolean all = variant != Variant.DISTINCT && variant != Variant.GROUP_BY;
        Query union = new SetOperation(SetOperation.Op.UNION, all,
                new SetOperation(SetOperation.Op.UNION, all, branches.get(0), branches.get(1)), branches.get(2));
        if (variant != Variant.AGGREGATE) {
            return union;
        }
        Aggregate aggregate = (Aggregate) base.items().get(0).expr();
        Aggregate.Function combine = aggregate.function() == Aggregate.Function.COUNT ? Aggregate.Function.SUM
                : aggregate.function();
        ColumnRef partial = new ColumnRef(UNION_ALIAS, base.items().get(0).alias(), aggregate.type());
        Expr combined = new Aggregate(combine, false, partial, null, TypeRules.aggregate(combine, aggregate.type()));
        return Select.of(List.of(new SelectItem(combined, "x0")), new DerivedTable(union, UNION_ALIAS));
    }

    @Override
    public List<Query> queries() {
        return List.of(original(), partitioned());
    }

    /**
     * Whether the base query still has its variant's shape: DISTINCT for DISTINCT; for GROUP BY,
     * exactly the grouping keys as columns (else the original may repeat rows that the UNION of the
     * partitions merges); for AGGREGATE, one MIN, MAX, SUM or COUNT whose value over all rows follows
     * from its values over the partitions.
     */
    @Override
    public boolean wellFormed() {
        return switch (variant) {
            case DISTINCT -> base.distinct();
            case GROUP_BY -> !base.groupBy().isEmpty()
                    && base.items().stream().map(SelectItem::expr).toList().equals(base.groupBy());
            case AGGREGATE -> base.items().size() == 1 && base.items().get(0).expr() instanceof Aggregate a && decomposable(a);
            default -> true;
        };
    }

    /** MIN, MAX, SUM or COUNT, not SUM or COUNT of DISTINCT values. */
    static boolean decomposable(Aggregate a) {
        return a.function() != Aggregate.Function.AVG
                && !(a.distinct() && (a.function() == Aggregate.Function.SUM || a.function() == Aggregate.Function.COUNT));
    }

    @Override
    public List<Node> children() {
        return List.of(base, predicate);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new TlpCase(variant, (Select) children.get(0), (Expr) children.get(1));
    }
}
