package io.warpdb.sql.translate;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import java.util.List;

/**
 * Several values as one: a string that equals another exactly when every value does, NULL when
 * any value is NULL, for {@code COUNT(DISTINCT a, b)}. Each value is written as text after its
 * length ({@code 3:abc1:7}), so no two combinations share a key (a DOUBLE -0.0 and 0.0 count as
 * two values).
 */
final class RowKeys {
    private RowKeys() {
    }

    static Expr of(List<Expr> values) {
        DataType text = DataType.VARCHAR.withNullable(true);
        Expr key = null;
        Expr anyNull = null;
        for (Expr v : values) {
            Expr s = v.type().kind().isString() ? v : Call.of(Op.CAST, text, v);
            Expr part = Call.of(Op.CONCAT, text, Call.of(Op.CONCAT, text, Call.of(Op.CAST, text, Call.of(Op.CHAR_LENGTH,
                    DataType.INTEGER.withNullable(true), s)), Literal.ofString(":")), s);
            key = key == null ? part : Call.of(Op.CONCAT, text, key, part);
            Expr isNull = Call.of(Op.IS_NULL, DataType.BOOLEAN.withNullable(false), v);
            anyNull = anyNull == null ? isNull : Call.of(Op.OR, DataType.BOOLEAN.withNullable(false), anyNull, isNull);
        }
        return Call.of(Op.CASE, text, anyNull, Literal.ofNull(text), key);
    }
}
