package io.warpdb.sql.calcite;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Replaces a comparison with an operand that is NULL whatever the row ({@code x = NULL},
 * {@code -CAST(NULL AS REAL) < x}, ...) by a NULL of its type, which is its value for every row. SqlToRelConverter leaves such
 * comparisons in filters as written, and Calcite's predicate metadata (pulled up by the field
 * trimmer and the join-order rules) rejects them with an AssertionError ("Comparison with
 * NULL in pulledUpPredicates"): folding them first keeps every later step inside its contract.
 */
final class NullComparisonFolder extends RelHomogeneousShuttle {
    private final RexShuttle folder;

    NullComparisonFolder(RexBuilder rexBuilder) {
        this.folder = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexNode visited = super.visitCall(call);
                return visited instanceof RexCall c && isComparisonWithNull(c) ? rexBuilder.makeNullLiteral(c.getType()) : visited;
            }
        };
    }

    @Override
    public RelNode visit(RelNode other) {
        return super.visit(other).accept(folder);
    }

    private static boolean isComparisonWithNull(RexCall call) {
        return switch (call.getKind()) {
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL ->
                    Strong.isNull(call, ImmutableBitSet.of());
            default -> false;
        };
    }
}
