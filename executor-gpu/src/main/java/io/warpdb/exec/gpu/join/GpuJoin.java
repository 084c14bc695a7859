package io.warpdb.exec.gpu.join;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.Field;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import io.warpdb.exec.gpu.expr.Unsupported;
import io.warpdb.exec.gpu.join.JoinStrategy.Algorithm;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;

/**
 * Joins on the GPU in three steps: the algorithm {@link JoinStrategy} picks finds (left row,
 * right row) pairs; when the join has a residual condition, or a kind the algorithm does not
 * produce itself, its inner pairs are filtered by the condition ({@link JoinResidual}) and
 * completed with the rows the kind adds ({@link JoinCompletion}); finally the output columns are
 * gathered ({@link JoinOutput}). Output rows come in no particular order.
 */
public final class GpuJoin {
    private GpuJoin() {
    }

    /** Whether the GPU runs {@code node}, and with which algorithm; throws {@link Unsupported} for a residual it cannot evaluate. */
    public static Support supports(JoinNode node) {
        if (node.residual() != null) {
            ProgramCompiler.check(node.left().schema().concat(node.right().schema()).fields().stream().map(Field::type).toList(),
                    List.of(node.residual()));
        }
        return JoinStrategy.supports(node);
    }

    /** Joins {@code left} with {@code right}; the inputs stay owned by the caller. */
    public static DeviceTable run(JoinNode node, DeviceTable left, DeviceTable right, EntryEvaluator entries, DeviceWork work) {
        Algorithm algorithm = JoinStrategy.choose(node);
        if (node.residual() == null && algorithm.produces(node.kind())) {
            try (JoinPairs pairs = match(algorithm, node.kind(), node, left, right, work)) {
                return JoinOutput.gather(node, left, right, pairs, work);
            }
        }
        try (JoinPairs candidates = match(algorithm, JoinKind.INNER, node, left, right, work);
                JoinPairs kept = node.residual() == null ? null : JoinResidual.keep(node, left, right, candidates, entries, work);
                JoinPairs pairs = JoinCompletion.complete(node.kind(), kept == null ? candidates : kept, left.rows(), right.rows(),
                        work)) {
            return JoinOutput.gather(node, left, right, pairs, work);
        }
    }

    private static JoinPairs match(Algorithm algorithm, JoinKind kind, JoinNode node, DeviceTable left, DeviceTable right,
            DeviceWork work) {
        return switch (algorithm) {
            case HASH -> kind == JoinKind.INNER && left.rows() < right.rows()
                    ? swapped(GpuHashJoin.match(kind, swapped(node), right, left, work))
                    : GpuHashJoin.match(kind, node, left, right, work);
            case SORT_MERGE -> GpuMergeJoin.match(kind, node, left, right, work);
            case NESTED_LOOP -> NestedLoopPairs.cross(left.rows(), right.rows(), work);
        };
    }

    /** The join with its sides exchanged, so that an inner join builds its hash table on the smaller input. */
    private static JoinNode swapped(JoinNode node) {
        return new JoinNode(node.right(), node.left(), node.kind(), node.rightKeys(), node.leftKeys(), null, node.schema());
    }

    private static JoinPairs swapped(JoinPairs pairs) {
        return new JoinPairs(pairs.rightRows(), pairs.leftRows(), pairs.count());
    }
}
