package io.warpdb.core.exec;

/**
 * Whether an executor can run something, and if not, why (shown by EXPLAIN). A supported answer
 * may say how it will be run (e.g. which join algorithm), which EXPLAIN shows too.
 */
public record Support(boolean supported, String reason) {
    public static final Support YES = new Support(true, null);

    public static Support no(String reason) {
        return new Support(false, reason);
    }

    /** Supported, run the way {@code how} says. */
    public static Support yes(String how) {
        return new Support(true, how);
    }
}
