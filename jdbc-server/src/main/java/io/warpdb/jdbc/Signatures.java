package io.warpdb.jdbc;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;

/**
 * Avatica signatures of WarpDB statements: the result columns clients see as
 * {@link java.sql.ResultSetMetaData} and the parameters they see as
 * {@link java.sql.ParameterMetaData}.
 */
final class Signatures {
    private Signatures() {
    }

    /**
     * The signature of a statement; {@code columns} is null for statements that return an
     * update count. Rows travel as lists, the form Avatica's server sends anyway.
     */
    static Meta.Signature of(String sql, List<DataType> parameterTypes, Schema columns) {
        List<AvaticaParameter> parameters = new ArrayList<>();
        for (int i = 0; i < parameterTypes.size(); i++) {
            parameters.add(parameter(i, parameterTypes.get(i)));
        }
        List<ColumnMetaData> columnData = new ArrayList<>();
        if (columns != null) {
            for (int i = 0; i < columns.size(); i++) {
                columnData.add(column(i, columns.field(i)));
            }
        }
        // Every non-query returns a count (DDL: 0); IS_DML is the type Avatica reads that way.
        Meta.StatementType type = columns != null ? Meta.StatementType.SELECT : Meta.StatementType.IS_DML;
        return new Meta.Signature(columnData, sql, parameters, Map.of(), Meta.CursorFactory.LIST, type);
    }

    private static ColumnMetaData column(int ordinal, Field field) {
        DataType type = field.type();
        return new ColumnMetaData(ordinal, false, JdbcTypes.caseSensitive(type), true, false,
                JdbcTypes.nullability(type), JdbcTypes.signed(type), type.displaySize(), field.name(), field.name(),
                "", JdbcTypes.precision(type), type.scale(), "", "", JdbcTypes.avaticaType(type), true, false, false,
                type.javaClass().getName());
    }

    private static AvaticaParameter parameter(int index, DataType type) {
        return new AvaticaParameter(JdbcTypes.signed(type), JdbcTypes.precision(type), type.scale(), type.jdbcType(),
                JdbcTypes.typeName(type), type.javaClass().getName(), "?" + (index + 1));
    }
}
