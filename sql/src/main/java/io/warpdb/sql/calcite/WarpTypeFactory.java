package io.warpdb.sql.calcite;

import io.warpdb.core.types.DataType;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's type factory with WarpDB's common type of exact numbers (UNION, CASE, COALESCE, IN):
 * when the widest whole part and the largest scale do not fit 18 digits together, the scale is
 * kept and the whole digits give way. Calcite does the reverse, which rounds every value of the
 * other inputs silently ({@code -4.43 UNION ALL CAST(NULL AS DECIMAL(17,0))} gave -4.4); kept
 * fraction digits are exact, and a whole part that does not fit fails loudly with 22003.
 */
final class WarpTypeFactory extends JavaTypeFactoryImpl {
    WarpTypeFactory() {
        super(WarpTypeSystem.INSTANCE);
    }

    @Override
    public @Nullable RelDataType leastRestrictive(List<RelDataType> types) {
        RelDataType common = super.leastRestrictive(types);
        if (common == null || common.getSqlTypeName() != SqlTypeName.DECIMAL
                || !types.stream().allMatch(t -> SqlTypeUtil.isExactNumeric(t) || t.getSqlTypeName() == SqlTypeName.NULL)) {
            return common;
        }
        int scale = 0;
        for (RelDataType t : types) {
            if (t.getSqlTypeName() != SqlTypeName.NULL) {
                scale = Math.max(scale, decimalOf(t).getScale());
            }
        }
        if (scale <= common.getScale()) {
            return common;
        }
        RelDataType kept = createSqlType(SqlTypeName.DECIMAL, DataType.MAX_DECIMAL_PRECISION, scale);
        return createTypeWithNullability(kept, common.isNullable());
    }
}
