package io.warpdb.core.plan;

/**
 * Functions of a {@link WindowNode}'s calls. Ranking functions (ROW_NUMBER to CUME_DIST, NTILE)
 * and LAG/LEAD look at the partition and the order, not the frame; FIRST_VALUE, LAST_VALUE,
 * NTH_VALUE and the aggregates look at the call's frame. The aggregates skip NULL inputs; SUM0
 * is SUM that gives 0 instead of NULL over a frame without values (Calcite writes a windowed SUM
 * as {@code CASE WHEN COUNT(x) > 0 THEN SUM0(x) END}).
 */
public enum WindowFunction {
    ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE,
    LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE,
    COUNT_STAR, COUNT, SUM, SUM0, AVG, MIN, MAX;

    /** Whether the result depends on the call's frame: true from FIRST_VALUE on, as listed. */
    public boolean usesFrame() {
        return ordinal() >= FIRST_VALUE.ordinal();
    }
}
