package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Query;
import java.util.List;

/** What an oracle checks: one or more queries built from a tree the minimiser can shrink. */
public interface OracleCase extends Node {
    /** The queries the oracle runs, as a finding's .test file lists them. */
    List<Query> queries();

    /** Whether the case still has the shape its oracle needs (the minimiser may make ones that lack it). */
    default boolean wellFormed() {
        return true;
    }
}
