package io.warpdb.sql.calcite;

import io.warpdb.core.data.ColumnStatistics;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.Table;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;

/**
 * A WarpDB table snapshot as Calcite's catalog sees it: a row type, a row count and the primary
 * key as the table's one unique key (declared, not enforced: the planner relies on it). Calcite
 * only plans over it; scans are executed by WarpDB from {@link #source()}. The target of a
 * DELETE or UPDATE also shows storage's row-id column last.
 */
public final class CalciteTable extends AbstractTable implements BuiltInMetadata.DistinctRowCount.Handler {
    private final TableSource source;
    private final boolean withRowId;
    /** The DEFAULT texts of columns that have one, by column name. */
    private final Map<String, String> defaults;
    /** The primary key's columns; empty when the table declares none. */
    private final ImmutableBitSet primaryKey;
    /** Distinct-value estimates by column: the join-order search asks for them many times. */
    private final Map<Integer, Double> distinctValues = new HashMap<>();

    public CalciteTable(TableSource source, boolean withRowId) {
        this(source, withRowId, Map.of(), List.of());
    }

    /** {@code primaryKey}: the key's column names (matched ignoring case); a key naming a column the table lacks is ignored. */
    public CalciteTable(TableSource source, boolean withRowId, Map<String, String> defaults, List<String> primaryKey) {
        this.source = source;
        this.withRowId = withRowId;
        this.defaults = Map.copyOf(defaults);
        this.primaryKey = columns(source.schema(), primaryKey);
    }

    private static ImmutableBitSet columns(Schema schema, List<String> names) {
        ImmutableBitSet.Builder columns = ImmutableBitSet.builder();
        for (String name : names) {
            int column = schema.indexOf(name);
            if (column < 0) {
                return ImmutableBitSet.of();
            }
            columns.set(column);
        }
        return columns.build();
    }

    /** What an INSERT puts into the columns it omits: their DEFAULTs, else NULL. */
    @Override
    public <C> C unwrap(Class<C> aClass) {
        if (aClass == InitializerExpressionFactory.class && !defaults.isEmpty()) {
            return aClass.cast(new DefaultValues(defaults));
        }
        return super.unwrap(aClass);
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
        return Statistics.of(source.rowCount(), primaryKey.isEmpty() ? List.of() : List.of(primaryKey));
    }

    /**
     * Distinct values of a set of columns, for join-order estimates: per column the size of its
     * range where storage knows one (an INTEGER key from 1 to 25 has at most 25 values), else
     * the row count; the product over the columns, capped by the row count, or by the rows a
     * predicate on the table keeps (10 parts named 'forest%' have at most 10 part keys).
     */
    @Override
    public Double getDistinctRowCount(RelNode rel, RelMetadataQuery mq, ImmutableBitSet groupKey, RexNode predicate) {
        double rows = Math.max(1, source.rowCount());
        double product = 1;
        for (int column : groupKey) {
            product *= column < source.schema().size()
                    ? distinctValues.computeIfAbsent(column, c -> distinctValues(c, rows)) : rows;
        }
        double kept = predicate == null ? rows : rows * RelMdUtil.guessSelectivity(predicate);
        Double selectivity = predicate == null ? null : mq.getSelectivity(rel, predicate);
        if (selectivity != null) {
            kept = rows * selectivity;
        }
        return Math.max(1, Math.min(kept, product));
    }

    private double distinctValues(int column, double rows) {
        ColumnStatistics stats = source.statistics(column).orElse(null);
        if (stats == null || stats.min() == null) {
            return stats != null && stats.min() == null ? 1 : rows;
        }
        if (stats.min() instanceof Boolean) {
            return stats.min().equals(stats.max()) ? 1 : 2;
        }
        if (stats.min() instanceof Long min && stats.max() instanceof Long max) {
            return Math.min(rows, (double) max - min + 1);
        }
        return rows;
    }
}
