package io.warpdb.fuzz.ast;

/** {@code name AS (query)} of a WITH clause; its columns are named like the query's. */
public record CommonTableExpression(String name, Query query) {
}
