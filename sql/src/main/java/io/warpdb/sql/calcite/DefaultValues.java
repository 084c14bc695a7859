package io.warpdb.sql.calcite;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.Map;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;

/**
 * The values an INSERT gives the columns it omits: a column's DEFAULT (a literal, optionally
 * signed, converted to the column's type), else NULL. A NOT NULL column without a DEFAULT must be
 * given a value.
 */
final class DefaultValues extends NullInitializerExpressionFactory {
    /** The DEFAULT texts by column name. */
    private final Map<String, String> defaults;

    DefaultValues(Map<String, String> defaults) {
        this.defaults = defaults;
    }

    private String defaultOf(RelOptTable table, int column) {
        return defaults.get(table.getRowType().getFieldList().get(column).getName());
    }

    @Override
    public ColumnStrategy generationStrategy(RelOptTable table, int column) {
        return defaultOf(table, column) != null ? ColumnStrategy.DEFAULT : super.generationStrategy(table, column);
    }

    @Override
    public RexNode newColumnDefaultValue(RelOptTable table, int column, InitializerContext context) {
        String text = defaultOf(table, column);
        if (text == null) {
            return super.newColumnDefaultValue(table, column, context);
        }
        SqlNode value = context.parseExpression(CalcitePlanner.parserConfig(), text);
        if (!isLiteral(value)) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "DEFAULT " + text + ": only literal defaults are supported");
        }
        RelDataType type = table.getRowType().getFieldList().get(column).getType();
        return context.getRexBuilder().makeCast(type, context.convertExpression(value), true, false);
    }

    /** A literal, or a signed numeric literal. */
    private static boolean isLiteral(SqlNode e) {
        if (e instanceof SqlCall call && (call.getKind() == SqlKind.MINUS_PREFIX || call.getKind() == SqlKind.PLUS_PREFIX)) {
            return call.operand(0) instanceof SqlNumericLiteral;
        }
        return e instanceof SqlLiteral;
    }
}
