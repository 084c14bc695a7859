package io.warpdb.fuzz;

/** How a checked case ended, from the most to the least severe. */
public enum Verdict {
    /** WarpDB failed with an internal error (XX000, no SQLSTATE, not an SQLException). Always a finding. */
    RAW_ERROR("raw errors"),
    /** The oracle disagrees with WarpDB. A finding. */
    MISMATCH("mismatches"),
    /** A query ran past the time limit. */
    TIMEOUT("timeouts"),
    /**
     * DuckDB's answer differs from WarpDB's, but DuckDB without its optimizer gives WarpDB's answer:
     * a bug of DuckDB's optimizer, not a finding.
     */
    DUCKDB_BUG("duckdb bugs"),
    /** The generated query is not valid SQL for the oracle (a fuzzer bug, not a finding). */
    INVALID("invalid queries"),
    /** WarpDB does not support the query (0A000). */
    UNSUPPORTED("unsupported"),
    /** Both sides failed with a data error (division by zero, overflow, invalid cast). */
    EXPECTED_ERROR("expected errors"),
    /** Compared equal. */
    OK("compared");

    /** How the statistics name the cases of this verdict. */
    public final String label;

    Verdict(String label) {
        this.label = label;
    }

    public boolean isFinding() {
        return this == RAW_ERROR || this == MISMATCH;
    }
}
