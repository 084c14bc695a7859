package io.warpdb.core.plan;

/**
 * Aggregate functions. COUNT_STAR takes no argument; the others one; all but SINGLE_VALUE skip
 * NULL inputs. SINGLE_VALUE is the value of a group's only row (a scalar sub-query's result);
 * a group of several rows fails with SQLSTATE 21000.
 */
public enum AggFunction {
    COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, SINGLE_VALUE
}
