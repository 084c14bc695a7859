package io.warpdb.sql.calcite;

import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;

/**
 * The planner's constant evaluator: it evaluates nothing. Calcite's default one compiles
 * constant expressions with Janino and computes them with Java's rules, which are not WarpDB's:
 * {@code CAST(-5.5 AS INTEGER)} truncated to -5 where WarpDB's executors round to -6, and
 * {@code CAST(0.00 AS VARCHAR)} became '.00'. Left alone, constant expressions are computed by
 * WarpDB's executors, once per statement, with the same rules as column values.
 */
final class NoConstantReduction implements RexExecutor {
    static final NoConstantReduction INSTANCE = new NoConstantReduction();

    private NoConstantReduction() {
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        reducedValues.addAll(constExps);
    }
}
