package io.warpdb.core.plan;

/**
 * Aggregate functions. COUNT_STAR takes no argument; COUNT one or several (the rows, or with
 * DISTINCT the distinct combinations, in which no argument is NULL); the others one; all but
 * SINGLE_VALUE skip NULL inputs. SINGLE_VALUE is the value of a group's only row (a scalar sub-query's result);
 * a group of several rows fails with SQLSTATE 21000. The variances and standard deviations are
 * DOUBLE: the population's of one value is 0, the sample's NULL. APPROX_COUNT_DISTINCT estimates
 * the number of distinct non-NULL values (a HyperLogLog sketch; exact for small counts).
 * ANY_VALUE is one of a group's non-NULL values, whichever the executor meets first: the planner
 * takes it for columns a group key determines (all of a group's values are equal), where MIN
 * would compare strings for nothing.
 */
public enum AggFunction {
    COUNT_STAR, COUNT, SUM, AVG, MIN, MAX, ANY_VALUE, SINGLE_VALUE, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, APPROX_COUNT_DISTINCT
}
