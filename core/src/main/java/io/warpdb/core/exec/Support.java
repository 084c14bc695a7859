package io.warpdb.core.exec;

/** Whether an executor can run something, and if not, why (shown by EXPLAIN). */
public record Support(boolean supported, String reason) {
    public static final Support YES = new Support(true, null);

    public static Support no(String reason) {
        return new Support(false, reason);
    }
}
