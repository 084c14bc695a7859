package io.warpdb.fuzz.ast;

/** An item of a FROM clause: a table, a derived table, or a join of two items. */
public sealed interface From extends Node permits TableRef, DerivedTable, Join {
    String render(Dialect dialect);
}
