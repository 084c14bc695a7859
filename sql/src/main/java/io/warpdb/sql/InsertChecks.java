package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Checks on INSERT ... VALUES that must see the statement before Calcite converts it: Calcite
 * folds the cast of a string literal to the column's VARCHAR(n) by truncating it silently.
 */
final class InsertChecks {
    private InsertChecks() {
    }

    /** SQLSTATE 22001 when a string literal is longer than its target CHAR(n) or VARCHAR(n) column. */
    static void checkStringLengths(org.apache.calcite.sql.SqlInsert insert, Schema table) {
        SqlNode source = insert.getSource();
        if (source.getKind() != SqlKind.VALUES) {
            return;
        }
        SqlNodeList targets = insert.getTargetColumnList();
        for (SqlNode row : ((SqlBasicCall) source).getOperandList()) {
            List<SqlNode> values = ((SqlBasicCall) row).getOperandList();
            for (int i = 0; i < values.size(); i++) {
                int column = targets == null ? i : table.indexOf(((SqlIdentifier) targets.get(i)).getSimple());
                if (column < 0 || column >= table.size() || !(values.get(i) instanceof SqlCharStringLiteral literal)) {
                    continue;
                }
                DataType type = table.type(column);
                String value = literal.getValueAs(String.class);
                String stored = type.kind() == io.warpdb.core.types.TypeKind.CHAR ? value.stripTrailing() : value;
                if (type.kind().isString() && type.precision() > 0 && stored.codePointCount(0, stored.length()) > type.precision()) {
                    throw new WarpException(SqlState.STRING_DATA_RIGHT_TRUNCATION, "value '" + value + "' is too long for column "
                            + table.field(column).name() + " " + type.sqlName() + " (" + literal.getParserPosition() + ")");
                }
            }
        }
    }
}
