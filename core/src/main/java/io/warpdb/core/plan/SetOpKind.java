package io.warpdb.core.plan;

/** The set operations a {@link SetOpNode} computes. */
public enum SetOpKind {
    /** Rows of either input (DISTINCT only: UNION ALL is a {@link UnionNode}). */
    UNION,
    /** Rows of the left input that the right one has: with ALL, min(m, n) copies of a row m times left and n times right. */
    INTERSECT,
    /** Rows of the left input that the right one lacks: with ALL, max(m - n, 0) copies. */
    EXCEPT
}
