package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexNode;

/** ORDER BY, LIMIT and OFFSET. Without an explicit NULLS clause NULLs sort as the largest value. */
final class SortTranslator implements NodeTranslator<Sort> {
    @Override
    public PlanNode translate(Sort rel, PlanTranslator translator) {
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation c : rel.getCollation().getFieldCollations()) {
            keys.add(sortKey(c));
        }
        long offset = rel.offset == null ? 0 : count(rel.offset, translator, "OFFSET");
        long limit = rel.fetch == null ? -1 : count(rel.fetch, translator, "LIMIT");
        return new SortNode(translator.translate(rel.getInput()), keys, offset, limit);
    }

    /** One key of an ORDER BY (also of a window's). */
    static SortKey sortKey(RelFieldCollation c) {
        RelFieldCollation.NullDirection nulls = c.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                ? c.direction.defaultNullDirection() : c.nullDirection;
        return new SortKey(c.getFieldIndex(), c.direction.isDescending(), nulls == RelFieldCollation.NullDirection.FIRST);
    }

    private static long count(RexNode node, PlanTranslator translator, String clause) {
        Expr e = translator.rex().translate(node);
        if (!(e instanceof Literal lit) || lit.value() == null || (Long) lit.value() < 0) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, clause + " must be a non-negative integer");
        }
        return (Long) lit.value();
    }
}
