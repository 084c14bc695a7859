package io.warpdb.sql.calcite;

import io.warpdb.core.data.TableSource;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A WarpDB table snapshot as Calcite's catalog sees it: a row type and a row count. Calcite
 * only plans over it; scans are executed by WarpDB from {@link #source()}.
 */
public final class CalciteTable extends AbstractTable {
    private final TableSource source;

    public CalciteTable(TableSource source) {
        this.source = source;
    }

    public TableSource source() {
        return source;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return TypeMapping.toRowType(source.schema(), typeFactory);
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of(source.rowCount(), List.of());
    }
}
