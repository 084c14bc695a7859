package io.warpdb.fuzz.ast;

/** Questions about expression trees. */
public final class Exprs {
    private Exprs() {
    }

    /** Whether {@code e} references no column (so it is the same for every row). */
    public static boolean isConstant(Node e) {
        return !(e instanceof ColumnRef) && e.children().stream().allMatch(Exprs::isConstant);
    }

    /** Whether an aggregate occurs in {@code e}, not counting those inside sub-queries. */
    public static boolean containsAggregate(Node e) {
        if (e instanceof Aggregate) {
            return true;
        }
        if (e instanceof Query || e instanceof ScalarSubquery || e instanceof Exists) {
            return false;
        }
        if (e instanceof InSubquery in) {
            return containsAggregate(in.arg());
        }
        return e.children().stream().anyMatch(Exprs::containsAggregate);
    }
}
