package io.warpdb.fuzz.ast;

/**
 * The engine a query is rendered for. Both run the same query; where their dialects differ,
 * nodes render the form that means the same on each (see fuzz/README.md, "Dialect differences").
 */
public enum Dialect {
    WARPDB,
    DUCKDB
}
