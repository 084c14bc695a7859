package io.warpdb.core.plan;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Joins two inputs. Rows match when every {@code leftKeys[i] = rightKeys[i]} (SQL equality:
 * NULL keys never match) and {@code residual} (over the left columns followed by the right
 * ones; null when absent) is TRUE. With no keys it is a nested-loop join on the residual.
 * Output: left columns then right columns (right columns only for kinds that output them;
 * the unmatched side is NULL in outer joins).
 *
 * <p>{@code buildLeft} is a physical hint for SEMI and ANTI joins whose right input is expected
 * to be much larger than the left: index the left rows and stream the right ones past them,
 * instead of indexing the right input. The result is the same either way; an executor may ignore it.
 */
public record JoinNode(PlanNode left, PlanNode right, JoinKind kind, List<Integer> leftKeys, List<Integer> rightKeys,
        Expr residual, Schema schema, boolean buildLeft) implements PlanNode {
    public JoinNode {
        leftKeys = List.copyOf(leftKeys);
        rightKeys = List.copyOf(rightKeys);
        if (leftKeys.size() != rightKeys.size()) {
            throw new IllegalArgumentException("join has " + leftKeys.size() + " left keys and " + rightKeys.size() + " right keys");
        }
        if (buildLeft && kind.outputsRight()) {
            throw new IllegalArgumentException("only SEMI and ANTI joins build on the left, not " + kind);
        }
    }

    /** A join that builds on the right input. */
    public JoinNode(PlanNode left, PlanNode right, JoinKind kind, List<Integer> leftKeys, List<Integer> rightKeys,
            Expr residual, Schema schema) {
        this(left, right, kind, leftKeys, rightKeys, residual, schema, false);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(left, right);
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return new JoinNode(inputs.get(0), inputs.get(1), kind, leftKeys, rightKeys, residual, schema, buildLeft);
    }

    /**
     * This inner join turned around, {@code right JOIN left} (right columns first, the residual
     * remapped), wrapped in the projection that puts the columns back in this join's order: the
     * same rows, with the hash table built on the left input instead.
     */
    public ProjectNode swapped() {
        if (kind != JoinKind.INNER) {
            throw new IllegalStateException("only inner joins turn around, not " + kind);
        }
        int leftCount = left.schema().size();
        int rightCount = right.schema().size();
        // Old position i (left columns first) is at i + rightCount when left, i - leftCount when right.
        IntUnaryOperator moved = i -> i < leftCount ? i + rightCount : i - leftCount;
        JoinNode join = new JoinNode(right, left, JoinKind.INNER, rightKeys, leftKeys,
                residual == null ? null : Exprs.remap(residual, moved), right.schema().concat(left.schema()));
        List<Expr> reorder = new ArrayList<>();
        for (int i = 0; i < leftCount + rightCount; i++) {
            reorder.add(new ColumnRef(moved.applyAsInt(i), schema.type(i)));
        }
        return new ProjectNode(join, reorder, schema);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitJoin(this);
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("Join(kind=").append(kind);
        if (!leftKeys.isEmpty()) {
            sb.append(", keys=");
            for (int i = 0; i < leftKeys.size(); i++) {
                sb.append(i == 0 ? "" : " AND ").append("L$").append(leftKeys.get(i)).append("=R$").append(rightKeys.get(i));
            }
        }
        if (residual != null) {
            sb.append(", residual=").append(residual);
        }
        if (buildLeft) {
            sb.append(", build=left");
        }
        return sb.append(')').toString();
    }
}
