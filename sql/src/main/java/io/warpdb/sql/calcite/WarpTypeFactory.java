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
 * within 18 digits unless an input is a wider DECIMAL (then 38, see {@link WarpTypeSystem}); when
 * the widest whole part and the largest scale do not fit those digits together, the scale is
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
        int width = types.stream().mapToInt(WarpTypeSystem::widthOf).max().orElse(DataType.MAX_DECIMAL_PRECISION);
        if (common.getPrecision() > width) {
            // No input is a wide DECIMAL: the common type stays within 18 digits, as the inputs' arithmetic does.
            int scale = Math.min(common.getScale(), width);
            common = createTypeWithNullability(createSqlType(SqlTypeName.DECIMAL, width, scale), common.isNullable());
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
        RelDataType kept = createSqlType(SqlTypeName.DECIMAL, width, scale);
        return createTypeWithNullability(kept, common.isNullable());
    }
}
