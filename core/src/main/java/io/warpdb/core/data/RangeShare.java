package io.warpdb.core.data;

import java.util.Optional;

/**
 * For estimates: the share of an integer-valued column (INTEGER, BIGINT, DATE as days) that range
 * conditions keep, assuming its values spread evenly over the [minimum, maximum] storage knows.
 * Conditions on the column intersect: {@code l_shipdate >= DATE '1995-09-01' AND l_shipdate <
 * DATE '1995-10-01'} keeps 30 of lineitem's 2,526 days.
 */
public final class RangeShare {
    /** What a range that holds no value of the column keeps: not 0, as the statistics may be stale. */
    private static final double EMPTY_RANGE_SHARE = 0.001;

    private final double min;
    private final double max;
    private double low = Double.NEGATIVE_INFINITY;
    private double high = Double.POSITIVE_INFINITY;

    private RangeShare(double min, double max) {
        this.min = min;
        this.max = max;
    }

    /** The column's full range, when its statistics hold an integer minimum and maximum. */
    public static Optional<RangeShare> of(ColumnStatistics statistics) {
        if (statistics.min() instanceof Long min && statistics.max() instanceof Long max && min <= max) {
            return Optional.of(new RangeShare(min, max));
        }
        return Optional.empty();
    }

    /** Keeps only values below {@code value} (or equal to it, when {@code inclusive}). */
    public void below(double value, boolean inclusive) {
        high = Math.min(high, inclusive ? Math.floor(value) : Math.ceil(value) - 1);
    }

    /** Keeps only values above {@code value} (or equal to it, when {@code inclusive}). */
    public void above(double value, boolean inclusive) {
        low = Math.max(low, inclusive ? Math.ceil(value) : Math.floor(value) + 1);
    }

    /** The share of [min, max] within the bounds so far. */
    public double share() {
        double from = Math.max(low, min);
        double to = Math.min(high, max);
        if (to < from) {
            return EMPTY_RANGE_SHARE;
        }
        return Math.max(EMPTY_RANGE_SHARE, (to - from + 1) / (max - min + 1));
    }
}
