package io.warpdb.fuzz.ast;

import java.util.List;

/** A query: a SELECT or a set operation. */
public sealed interface Query extends Node permits Select, SetOperation {
    String render(Dialect dialect);

    /** The names of the result columns. */
    List<String> columnNames();

    /** The types of the result columns. */
    List<SqlType> columnTypes();

    /** Whether the rows come in one determined order (an ORDER BY over every result column). */
    boolean totallyOrdered();
}
