package io.warpdb.sql.calcite;

import io.warpdb.core.types.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type rules adjusted to what WarpDB stores: DECIMAL fits a scaled 64-bit integer
 * (precision 18); TIMESTAMP has microseconds; SUM widens integers to BIGINT and DECIMAL to the widest precision at the same
 * scale; AVG and the quotient of DECIMALs are DOUBLE, as in DuckDB. A product whose exact type
 * would need more than 18 digits keeps its whole digits and gives up fraction digits (down to 6),
 * as SQL Server does, instead of keeping every fraction digit and overflowing.
 */
public final class WarpTypeSystem extends RelDataTypeSystemImpl {
    public static final WarpTypeSystem INSTANCE = new WarpTypeSystem();
    /** Fraction digits a product keeps at least when its exact type does not fit. */
    private static final int MIN_PRODUCT_SCALE = 6;

    private WarpTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> DataType.MAX_DECIMAL_PRECISION;
            case TIMESTAMP -> DataType.TIMESTAMP_PRECISION;
            default -> super.getMaxPrecision(typeName);
        };
    }

    /** A TIMESTAMP keeps microseconds unless declared with fewer fraction digits. */
    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.TIMESTAMP ? DataType.TIMESTAMP_PRECISION : super.getDefaultPrecision(typeName);
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
    public RelDataType deriveDecimalMultiplyType(RelDataTypeFactory typeFactory, RelDataType left, RelDataType right) {
        RelDataType exact = super.deriveDecimalMultiplyType(typeFactory, left, right);
        if (exact == null || exact.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return exact;
        }
        RelDataType l = typeFactory.decimalOf(left);
        RelDataType r = typeFactory.decimalOf(right);
        int whole = (l.getPrecision() - l.getScale()) + (r.getPrecision() - r.getScale());
        int scale = l.getScale() + r.getScale();
        int max = DataType.MAX_DECIMAL_PRECISION;
        if (whole + scale <= max) {
            return exact;
        }
        int kept = Math.min(scale, Math.max(Math.min(scale, MIN_PRODUCT_SCALE), max - whole));
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DECIMAL, max, kept), exact.isNullable());
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
