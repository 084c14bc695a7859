package io.warpdb.sql.calcite;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/** Converts between Calcite's types and WarpDB's {@link DataType}. */
public final class TypeMapping {
    private TypeMapping() {
    }

    /** The WarpDB type of a Calcite type; SQLSTATE 0A000 for types WarpDB does not have. */
    public static DataType toDataType(RelDataType t) {
        boolean nullable = t.isNullable();
        DataType base = switch (t.getSqlTypeName()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case TINYINT -> DataType.TINYINT;
            case SMALLINT -> DataType.SMALLINT;
            case INTEGER, NULL -> DataType.INTEGER;
            case BIGINT -> DataType.BIGINT;
            case REAL -> DataType.REAL;
            case FLOAT, DOUBLE -> DataType.DOUBLE;
            case DECIMAL -> DataType.decimal(t.getPrecision(), t.getScale());
            case DATE -> DataType.DATE;
            case TIMESTAMP -> DataType.TIMESTAMP;
            case INTERVAL_DAY_SECOND -> DataType.INTERVAL;
            case VARCHAR -> t.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
                    || t.getPrecision() >= 65536 ? DataType.VARCHAR : DataType.varchar(t.getPrecision());
            case CHAR -> DataType.chars(t.getPrecision());
            default -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "type " + t.getFullTypeString() + " is not supported");
        };
        return base.withNullable(nullable);
    }

    /** The Calcite type of a WarpDB type. */
    public static RelDataType toRelType(DataType t, RelDataTypeFactory f) {
        RelDataType base = switch (t.kind()) {
            case BOOLEAN -> f.createSqlType(SqlTypeName.BOOLEAN);
            case INTEGER -> f.createSqlType(t.precision() == DataType.SMALLINT_BITS ? SqlTypeName.SMALLINT
                    : t.precision() == DataType.TINYINT_BITS ? SqlTypeName.TINYINT : SqlTypeName.INTEGER);
            case BIGINT -> f.createSqlType(SqlTypeName.BIGINT);
            case DOUBLE -> f.createSqlType(t.isReal() ? SqlTypeName.REAL : SqlTypeName.DOUBLE);
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale());
            case DATE -> f.createSqlType(SqlTypeName.DATE);
            case TIMESTAMP -> f.createSqlType(SqlTypeName.TIMESTAMP, DataType.TIMESTAMP_PRECISION);
            case INTERVAL -> f.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO));
            case VARCHAR -> t.precision() > 0 ? f.createSqlType(SqlTypeName.VARCHAR, t.precision())
                    : f.createSqlType(SqlTypeName.VARCHAR);
            case CHAR -> f.createSqlType(SqlTypeName.CHAR, t.precision());
        };
        return f.createTypeWithNullability(base, t.nullable());
    }

    /** The schema of a Calcite row type; {@code names} override the field names when not null. */
    public static Schema toSchema(RelDataType rowType, List<String> names) {
        List<Field> fields = new ArrayList<>();
        List<RelDataTypeField> rel = rowType.getFieldList();
        for (int i = 0; i < rel.size(); i++) {
            fields.add(new Field(names != null ? names.get(i) : rel.get(i).getName(), toDataType(rel.get(i).getType())));
        }
        return new Schema(fields);
    }

    public static RelDataType toRowType(Schema schema, RelDataTypeFactory f) {
        RelDataTypeFactory.Builder b = f.builder();
        for (Field field : schema.fields()) {
            b.add(field.name(), toRelType(field.type(), f));
        }
        return b.build();
    }
}
