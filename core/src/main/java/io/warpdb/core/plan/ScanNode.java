package io.warpdb.core.plan;

import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.Schema;
import java.util.List;

/** Reads {@code columns} (positions in the table's schema) of a table snapshot. */
public record ScanNode(TableSource table, List<Integer> columns, Schema schema) implements PlanNode {
    public ScanNode {
        columns = List.copyOf(columns);
    }

    public static ScanNode of(TableSource table, List<Integer> columns) {
        return new ScanNode(table, columns, table.schema().select(columns));
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public String describe() {
        return "Scan(table=" + table.name() + ", columns=" + schema.fields().stream().map(f -> f.name()).toList() + ")";
    }
}
