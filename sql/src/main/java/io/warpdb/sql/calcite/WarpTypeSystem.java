package io.warpdb.sql.calcite;

import io.warpdb.core.types.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type rules adjusted to what WarpDB stores: DECIMAL fits a scaled 64-bit integer
 * (precision 18); SUM widens integers to BIGINT and DECIMAL to the widest precision at the same
 * scale; AVG and the quotient of DECIMALs are DOUBLE, as in DuckDB.
 */
public final class WarpTypeSystem extends RelDataTypeSystemImpl {
    public static final WarpTypeSystem INSTANCE = new WarpTypeSystem();

    private WarpTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? DataType.MAX_DECIMAL_PRECISION : super.getMaxPrecision(typeName);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? DataType.MAX_DECIMAL_PRECISION : super.getMaxScale(typeName);
    }

    /** CASE 'a' ... ELSE 'longer' is VARCHAR(6), not a blank-padded CHAR(6). */
    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        RelDataType sum = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> typeFactory.createSqlType(SqlTypeName.BIGINT);
            case DECIMAL -> typeFactory.createSqlType(SqlTypeName.DECIMAL, DataType.MAX_DECIMAL_PRECISION,
                    argumentType.getScale());
            default -> typeFactory.createSqlType(SqlTypeName.DOUBLE);
        };
        return typeFactory.createTypeWithNullability(sum, argumentType.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), argumentType.isNullable());
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType dividend, RelDataType divisor) {
        if (!org.apache.calcite.sql.type.SqlTypeUtil.isDecimal(dividend) && !org.apache.calcite.sql.type.SqlTypeUtil.isDecimal(divisor)) {
            return null;
        }
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                dividend.isNullable() || divisor.isNullable());
    }
}
