package io.warpdb.core.data;

/**
 * What storage knows of a column without reading it, for the planner's estimates: how many
 * rows hold NULL and the range of the others, in {@link io.warpdb.core.expr.Literal}'s
 * normalized form (null when unknown or when every row is NULL).
 */
public record ColumnStatistics(long nullCount, Object min, Object max) {
}
