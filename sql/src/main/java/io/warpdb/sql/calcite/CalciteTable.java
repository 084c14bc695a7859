package io.warpdb.sql.calcite;

import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.Table;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A WarpDB table snapshot as Calcite's catalog sees it: a row type and a row count. Calcite
 * only plans over it; scans are executed by WarpDB from {@link #source()}. The target of a
 * DELETE or UPDATE also shows storage's row-id column last.
 */
public final class CalciteTable extends AbstractTable {
    private final TableSource source;
    private final boolean withRowId;

    public CalciteTable(TableSource source, boolean withRowId) {
        this.source = source;
        this.withRowId = withRowId;
    }

    public TableSource source() {
        return source;
    }

    /** The scanned schema: the table's columns, then the row id for a DML target. */
    public Schema schema() {
        return withRowId ? source.schema().concat(Schema.of(Table.ROW_ID_FIELD)) : source.schema();
    }

    /** The storage column index of scanned column {@code i}. */
    public int storageColumn(int i) {
        return i == source.schema().size() ? Table.ROW_ID : i;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return TypeMapping.toRowType(schema(), typeFactory);
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of(source.rowCount(), List.of());
    }
}
