package io.warpdb.fuzz;

import io.warpdb.fuzz.QueryGenerator.Source;
import java.math.BigDecimal;
import java.util.Random;

/**
 * Non-optimizing Reference Engine Construction (Rigger and Su, ESEC/FSE 2020), on WarpDB alone:
 * a filter the optimizer may push, reorder and index must keep as many rows as the same
 * predicate evaluated as a value on every row and summed.
 */
public final class NoRecOracle implements Oracle {
    @Override
    public String name() {
        return "norec";
    }

    @Override
    public OracleCase generate(QueryGenerator g, Random random) {
        Source src = g.source(null, 1);
        return new NoRecCase(src.from(), src.where(), g.predicate(src.scope()));
    }

    @Override
    public Check check(OracleCase fuzzCase, Engines engines) {
        NoRecCase c = (NoRecCase) fuzzCase;
        return SelfComparison.check(c.optimized(), c.unoptimized(), engines, NoRecOracle::differentCounts, name());
    }

    /** Null when the COUNT(*) equals the SUM (NULL, over no rows, counting as 0). */
    static String differentCounts(QueryResult count, QueryResult sum) {
        BigDecimal counted = number(count);
        BigDecimal summed = number(sum);
        return counted.compareTo(summed) == 0 ? null : "COUNT(*) WHERE p is " + counted + " but SUM(CASE WHEN p ...) is " + summed;
    }

    private static BigDecimal number(QueryResult r) {
        Object v = r.rows().isEmpty() ? null : r.rows().get(0).get(0);
        return v == null ? BigDecimal.ZERO : ResultComparator.exact((Number) v);
    }
}
