package io.warpdb.core.plan;

/**
 * Join kinds. SEMI and ANTI output only the left columns: left rows with at least one / no
 * matching right row.
 */
public enum JoinKind {
    INNER, LEFT, RIGHT, FULL, SEMI, ANTI;

    /** Whether the output carries the right side's columns. */
    public boolean outputsRight() {
        return this != SEMI && this != ANTI;
    }
}
