package io.warpdb.fuzz.ast;

/** Questions about expression trees. */
public final class Exprs {
    private Exprs() {
    }

    /** Whether {@code e} references no column (so it is the same for every row). */
    public static boolean isConstant(Node e) {
        return !(e instanceof ColumnRef) && e.children().stream().allMatch(Exprs::isConstant);
    }
}
