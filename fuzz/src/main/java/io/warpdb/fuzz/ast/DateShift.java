package io.warpdb.fuzz.ast;

import java.util.List;

/**
 * {@code date + INTERVAL 'n' unit} (or minus): a DATE in WarpDB, a TIMESTAMP in DuckDB, which
 * therefore gets it cast back to DATE.
 */
public record DateShift(Expr date, int amount, Unit unit) implements Expr {
    public enum Unit { DAY, MONTH, YEAR }

    @Override
    public SqlType type() {
        return SqlType.DATE;
    }

    @Override
    public String render(Dialect dialect) {
        String shifted = "(" + date.render(dialect) + (amount < 0 ? " - " : " + ") + "INTERVAL '" + Math.abs(amount) + "' "
                + unit + ")";
        return dialect == Dialect.DUCKDB ? "CAST(" + shifted + " AS DATE)" : shifted;
    }

    @Override
    public List<Node> children() {
        return List.of(date);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new DateShift((Expr) children.get(0), amount, unit);
    }
}
