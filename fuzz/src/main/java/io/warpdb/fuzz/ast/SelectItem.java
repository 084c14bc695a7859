package io.warpdb.fuzz.ast;

/** One result column: {@code expr AS alias}. */
public record SelectItem(Expr expr, String alias) {
    public SelectItem withExpr(Expr e) {
        return new SelectItem(e, alias);
    }
}
