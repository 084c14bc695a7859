package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.SqlType;

/** A table column. */
public record Column(String name, SqlType type) {
}
