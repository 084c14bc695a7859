package io.warpdb.core.plan;

/**
 * The rows of its partition a window call sees from each row: {@code ROWS} counts rows,
 * {@code RANGE} compares order-key values (CURRENT ROW there means the row and its peers, the
 * rows with equal order keys). The SQL default with ORDER BY is {@link #RANGE_TO_CURRENT_ROW},
 * without it {@link #WHOLE_PARTITION}.
 */
public record WindowFrame(boolean rows, Bound lower, Bound upper) {
    public static final WindowFrame RANGE_TO_CURRENT_ROW = new WindowFrame(false,
            Bound.UNBOUNDED_PRECEDING, Bound.CURRENT_ROW);
    public static final WindowFrame WHOLE_PARTITION = new WindowFrame(false,
            Bound.UNBOUNDED_PRECEDING, Bound.UNBOUNDED_FOLLOWING);

    /** Where a frame starts or ends. */
    public enum BoundKind {
        UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING
    }

    /**
     * One end of a frame; {@code offset} (non-negative) counts rows for ROWS, and for RANGE is a
     * distance in the single order key's physical units (unscaled for DECIMAL, days for DATE).
     */
    public record Bound(BoundKind kind, long offset) {
        public static final Bound UNBOUNDED_PRECEDING = new Bound(BoundKind.UNBOUNDED_PRECEDING, 0);
        public static final Bound CURRENT_ROW = new Bound(BoundKind.CURRENT_ROW, 0);
        public static final Bound UNBOUNDED_FOLLOWING = new Bound(BoundKind.UNBOUNDED_FOLLOWING, 0);

        public Bound {
            if (offset < 0) {
                throw new IllegalArgumentException("frame offset must not be negative: " + offset);
            }
        }

        /** Whether the bound lies an offset away from the current row. */
        public boolean hasOffset() {
            return kind == BoundKind.PRECEDING || kind == BoundKind.FOLLOWING;
        }

        @Override
        public String toString() {
            return switch (kind) {
                case UNBOUNDED_PRECEDING -> "UNBOUNDED PRECEDING";
                case PRECEDING -> offset + " PRECEDING";
                case CURRENT_ROW -> "CURRENT ROW";
                case FOLLOWING -> offset + " FOLLOWING";
                case UNBOUNDED_FOLLOWING -> "UNBOUNDED FOLLOWING";
            };
        }
    }

    @Override
    public String toString() {
        return (rows ? "ROWS" : "RANGE") + " BETWEEN " + lower + " AND " + upper;
    }
}
