package io.warpdb.fuzz.ast;

/** A scalar expression (or an aggregate call) with the type WarpDB gives it. */
public sealed interface Expr extends Node
        permits ColumnRef, Literal, Binary, Unary, FunctionCall, Substring, Trim, Extract, CaseWhen, Cast, Like, InList,
        Between, DateShift, Aggregate, ScalarSubquery, Exists, InSubquery {
    SqlType type();

    String render(Dialect dialect);
}
