package io.warpdb.fuzz;

import io.warpdb.fuzz.QueryGenerator.Source;
import io.warpdb.fuzz.ast.Aggregate;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.Select;
import io.warpdb.fuzz.ast.SelectItem;
import io.warpdb.fuzz.ast.SqlType.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Ternary Logic Partitioning (Rigger and Su, OOPSLA 2020, as in SQLancer), on WarpDB alone:
 * a query must return what the union of its three partitions on a predicate p returns (p,
 * NOT p, p IS NULL), compared as multisets. Variants partition WHERE, SELECT DISTINCT, GROUP BY,
 * HAVING, and the aggregates MIN, MAX, SUM and COUNT.
 */
public final class TlpOracle implements Oracle {
    @Override
    public String name() {
        return "tlp";
    }

    @Override
    public OracleCase generate(QueryGenerator g, Random random) {
        TlpCase.Variant variant = TlpCase.Variant.values()[random.nextInt(TlpCase.Variant.values().length)];
        Source src = g.source(null, 1);
        Expr where = random.nextBoolean() ? QueryGenerator.and(src.where(), g.predicate(src.scope())) : src.where();
        Expr p = g.predicate(src.scope());
        return switch (variant) {
            case WHERE, DISTINCT -> new TlpCase(variant,
                    Select.of(g.rowItems(src.scope()), src.from()).withWhere(where).withDistinct(variant == TlpCase.Variant.DISTINCT),
                    p);
            case GROUP_BY -> {
                List<Expr> keys = g.groupKeys(src.scope());
                List<SelectItem> items = new ArrayList<>();
                for (int i = 0; i < keys.size(); i++) {
                    items.add(new SelectItem(keys.get(i), "x" + i));
                }
                yield new TlpCase(variant, Select.of(items, src.from()).withWhere(where).withGroupBy(keys), p);
            }
            case HAVING -> {
                List<Expr> keys = g.groupKeys(src.scope());
                Select grouped = Select.of(g.groupItems(src.scope(), keys), src.from()).withWhere(where).withGroupBy(keys);
                yield new TlpCase(variant, grouped, g.groupPredicate(src.scope(), keys));
            }
            case AGGREGATE -> new TlpCase(variant,
                    Select.of(List.of(new SelectItem(decomposableAggregate(g, src), "x0")), src.from()).withWhere(where), p);
        };
    }

    /** An aggregate of the scope's rows that {@link TlpCase#decomposable} accepts. */
    private Aggregate decomposableAggregate(QueryGenerator g, Source src) {
        while (true) {
            Kind kind = g.someKind(src.scope());
            Expr e = g.aggregate(kind, src.scope());
            if (e instanceof Aggregate a && TlpCase.decomposable(a)) {
                return a;
            }
        }
    }

    @Override
    public Check check(OracleCase fuzzCase, Engines engines) {
        TlpCase c = (TlpCase) fuzzCase;
        return SelfComparison.check(c.original(), c.partitioned(), engines, (a, b) -> ResultComparator.compare(a, b, false), name());
    }
}
