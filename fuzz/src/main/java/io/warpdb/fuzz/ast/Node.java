package io.warpdb.fuzz.ast;

import java.util.List;

/**
 * A piece of a generated query: an expression, a query, a FROM item, or a whole fuzz case.
 * Nodes are immutable; the {@link io.warpdb.fuzz.Minimizer} shrinks a tree by rebuilding
 * nodes with fewer or simpler children.
 */
public interface Node {
    /** The direct sub-nodes, in a fixed order. */
    List<Node> children();

    /** This node with its children replaced, in the order of {@link #children()}. */
    Node withChildren(List<Node> children);

    /** Smaller variants of this node alone (dropping an optional clause, say); children are not visited. */
    default List<Node> simplifications() {
        return List.of();
    }
}
