package io.warpdb.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Calcite's standard convertlets, except that {@code AVG(x) OVER (...)} stays an AVG: the standard
 * one writes it as {@code CAST(SUM(x) AS DOUBLE) / COUNT(x)}, a double division of a rounded sum,
 * where the executors divide the exact sum (as DuckDB does, and as the grouped AVG does). Only
 * windowed calls reach convertlets; grouped aggregates are converted elsewhere.
 */
final class WindowAverageConvertlets implements SqlRexConvertletTable {
    static final WindowAverageConvertlets INSTANCE = new WindowAverageConvertlets();

    private WindowAverageConvertlets() {
    }

    @Override
    public SqlRexConvertlet get(SqlCall call) {
        if (call.getKind() == SqlKind.AVG) {
            return StandardConvertletTable.INSTANCE::convertCall;
        }
        return StandardConvertletTable.INSTANCE.get(call);
    }
}
