package io.warpdb.tpch;

/** A database that answers SQL queries: WarpDB under test, or the DuckDB reference. */
public interface QueryTarget {
    /** For output, e.g. {@code WarpDB (cpu)} or {@code DuckDB}. */
    String name();

    /** Runs the query and fetches all of its rows; errors are unchecked and carry the database's message. */
    ResultTable query(String sql);
}
