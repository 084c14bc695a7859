package io.warpdb.sql.calcite;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.fun.SqlMonotonicBinaryOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code DATE + INTEGER}, {@code INTEGER + DATE} and {@code DATE - INTEGER} (days), as in DuckDB
 * and PostgreSQL, and {@code TIMESTAMP - TIMESTAMP}, an INTERVAL DAY TO SECOND (DuckDB's
 * INTERVAL of days and microseconds). Calcite's + and - accept only intervals beside a date, and
 * a difference of timestamps only in its {@code (a - b) DAY TO SECOND} form; these take what
 * Calcite's take plus those, and stand in for Calcite's in {@link WarpOperatorTable} (the
 * validator looks each binary operator up there by name).
 */
final class DateIntegerArithmetic {
    static final SqlBinaryOperator PLUS = new SqlMonotonicBinaryOperator("+", SqlKind.PLUS, 40, true,
            binding -> dateOrElse(binding, SqlStdOperatorTable.PLUS), InferTypes.FIRST_KNOWN,
            OperandTypes.or(SqlStdOperatorTable.PLUS.getOperandTypeChecker(),
                    OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.DATE)));
    static final SqlBinaryOperator MINUS = new SqlMonotonicBinaryOperator("-", SqlKind.MINUS, 40, true,
            binding -> dateOrElse(binding, SqlStdOperatorTable.MINUS), InferTypes.FIRST_KNOWN,
            OperandTypes.or(SqlStdOperatorTable.MINUS.getOperandTypeChecker(),
                    OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.TIMESTAMP)));

    private DateIntegerArithmetic() {
    }

    /**
     * DATE when a date meets an integer, INTERVAL DAY TO SECOND between two timestamps, else what
     * Calcite's {@code standard} operator gives.
     */
    private static RelDataType dateOrElse(SqlOperatorBinding binding, SqlBinaryOperator standard) {
        RelDataType a = binding.getOperandType(0);
        RelDataType b = binding.getOperandType(1);
        if (a.getSqlTypeName() == SqlTypeName.TIMESTAMP && b.getSqlTypeName() == SqlTypeName.TIMESTAMP) {
            RelDataType interval = binding.getTypeFactory().createSqlIntervalType(
                    new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO));
            return binding.getTypeFactory().createTypeWithNullability(interval, a.isNullable() || b.isNullable());
        }
        boolean dateAndInteger = a.getSqlTypeName() == SqlTypeName.DATE && SqlTypeName.INT_TYPES.contains(b.getSqlTypeName())
                || b.getSqlTypeName() == SqlTypeName.DATE && SqlTypeName.INT_TYPES.contains(a.getSqlTypeName());
        if (!dateAndInteger) {
            return standard.getReturnTypeInference().inferReturnType(binding);
        }
        return binding.getTypeFactory().createTypeWithNullability(binding.getTypeFactory().createSqlType(SqlTypeName.DATE),
                a.isNullable() || b.isNullable());
    }
}
