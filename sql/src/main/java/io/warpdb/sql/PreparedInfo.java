package io.warpdb.sql;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * What preparing a statement tells a client before it runs: the types of its {@code ?}
 * parameters and, for a query, its result columns (null otherwise).
 */
public record PreparedInfo(String sql, List<DataType> parameterTypes, Schema resultSchema) {
    public PreparedInfo {
        parameterTypes = List.copyOf(parameterTypes);
    }

    public boolean isQuery() {
        return resultSchema != null;
    }
}
