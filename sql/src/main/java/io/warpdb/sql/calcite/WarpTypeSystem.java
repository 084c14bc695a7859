package io.warpdb.sql.calcite;

import io.warpdb.core.types.DataType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Calcite's type rules adjusted to what WarpDB stores: DECIMAL goes to 38 digits, but up to 18 it
 * is a scaled 64-bit integer, which both executors compute on fastest, so arithmetic on those
 * stays within 18 digits: only an operand that is already wide (a DECIMAL of more than 18 digits)
 * makes a wide result. TIMESTAMP has microseconds; SUM widens integers to BIGINT and DECIMAL to
 * the widest precision of its width (18, or 38 for a wide DECIMAL, as DuckDB) at the same scale;
 * AVG and the quotient of DECIMALs are DOUBLE, as in DuckDB. A product whose exact type would need
 * more digits than its width keeps its whole digits and gives up fraction digits (down to 6), as
 * SQL Server does, instead of keeping every fraction digit and overflowing; a sum keeps its scale.
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
            case DECIMAL -> DataType.MAX_WIDE_DECIMAL_PRECISION;
            case TIMESTAMP -> DataType.TIMESTAMP_PRECISION;
            default -> super.getMaxPrecision(typeName);
        };
    }

    /**
     * A TIMESTAMP keeps microseconds unless declared with fewer fraction digits; a DECIMAL declared
     * without a precision has 18 digits (as in CREATE TABLE and DuckDB), not the widest 38.
     */
    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case TIMESTAMP -> DataType.TIMESTAMP_PRECISION;
            case DECIMAL -> DataType.MAX_DECIMAL_PRECISION;
            default -> super.getDefaultPrecision(typeName);
        };
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? DataType.MAX_WIDE_DECIMAL_PRECISION : super.getMaxScale(typeName);
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
            // As DuckDB: 38 digits whatever the argument's, so that a sum of many narrow values (TPC-H q01's
            // charges at SF 100 have 20 digits) is a value, not an overflow.
            case DECIMAL -> typeFactory.createSqlType(SqlTypeName.DECIMAL, DataType.MAX_WIDE_DECIMAL_PRECISION, argumentType.getScale());
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
        return fitted(typeFactory, whole, scale, Math.max(widthOf(left), widthOf(right)), exact.isNullable());
    }

    @Override
    public RelDataType deriveDecimalPlusType(RelDataTypeFactory typeFactory, RelDataType left, RelDataType right) {
        if (!SqlTypeUtil.isExactNumeric(left) || !SqlTypeUtil.isExactNumeric(right)
                || !SqlTypeUtil.isDecimal(left) && !SqlTypeUtil.isDecimal(right)) {
            return null;
        }
        RelDataType l = typeFactory.decimalOf(left);
        RelDataType r = typeFactory.decimalOf(right);
        int scale = Math.max(l.getScale(), r.getScale());
        int whole = Math.max(l.getPrecision() - l.getScale(), r.getPrecision() - r.getScale()) + 1;
        // As Calcite (and DuckDB) do: the scale kept, the precision capped at the width.
        int precision = Math.min(whole + scale, Math.max(widthOf(left), widthOf(right)));
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DECIMAL, precision, scale),
                left.isNullable() || right.isNullable());
    }

    /**
     * The digits a DECIMAL result may have: 38 when the operand is a DECIMAL of more than 18 digits,
     * else 18 (integers too, though BIGINT is DECIMAL(19,0) to Calcite: it is a 64-bit value).
     */
    static int widthOf(RelDataType operand) {
        return operand.getSqlTypeName() == SqlTypeName.DECIMAL && operand.getPrecision() > DataType.MAX_DECIMAL_PRECISION
                ? DataType.MAX_WIDE_DECIMAL_PRECISION : DataType.MAX_DECIMAL_PRECISION;
    }

    /** DECIMAL with {@code whole} integer and {@code scale} fraction digits, fraction digits given up (to 6) to fit {@code max}. */
    private static RelDataType fitted(RelDataTypeFactory typeFactory, int whole, int scale, int max, boolean nullable) {
        int kept = whole + scale <= max ? scale : Math.min(scale, Math.max(Math.min(scale, MIN_PRODUCT_SCALE), max - whole));
        int precision = Math.min(max, whole + kept);
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DECIMAL, precision, kept), nullable);
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType dividend, RelDataType divisor) {
        if (!SqlTypeUtil.isDecimal(dividend) && !SqlTypeUtil.isDecimal(divisor)) {
            return null;
        }
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                dividend.isNullable() || divisor.isNullable());
    }
}
