package io.warpdb.core.plan;

/** Aggregate functions. COUNT_STAR takes no argument; the others one; all skip NULL inputs. */
public enum AggFunction {
    COUNT_STAR, COUNT, SUM, AVG, MIN, MAX
}
