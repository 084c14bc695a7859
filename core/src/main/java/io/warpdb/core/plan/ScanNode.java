package io.warpdb.core.plan;

import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * Reads {@code columns} (positions in the table's schema) of a table snapshot. The
 * {@code predicates} (on table column positions) let storage skip chunks that cannot match;
 * they are hints, so the plan keeps its filter above the scan.
 */
public record ScanNode(TableSource table, List<Integer> columns, Schema schema, List<ColumnPredicate> predicates)
        implements PlanNode {
    public ScanNode {
        columns = List.copyOf(columns);
        predicates = List.copyOf(predicates);
    }

    public ScanNode(TableSource table, List<Integer> columns, Schema schema) {
        this(table, columns, schema, List.of());
    }

    public static ScanNode of(TableSource table, List<Integer> columns) {
        return new ScanNode(table, columns, table.schema().select(columns));
    }

    public ScanNode withPredicates(List<ColumnPredicate> hints) {
        return new ScanNode(table, columns, schema, hints);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return this;
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitScan(this);
    }

    @Override
    public String describe() {
        return "Scan(table=" + table.name() + ", columns=" + schema.fields().stream().map(f -> f.name()).toList()
                + (predicates.isEmpty() ? "" : ", prune=" + predicates) + ")";
    }
}
