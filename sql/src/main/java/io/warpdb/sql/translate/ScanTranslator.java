package io.warpdb.sql.translate;

import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.sql.calcite.CalciteTable;
import java.util.stream.IntStream;
import org.apache.calcite.rel.core.TableScan;

/** A table scan reads every column; {@link ProjectTranslator} narrows it to the ones used. */
final class ScanTranslator implements NodeTranslator<TableScan> {
    @Override
    public PlanNode translate(TableScan rel, PlanTranslator translator) {
        CalciteTable table = rel.getTable().unwrap(CalciteTable.class);
        int n = table.schema().size();
        return new ScanNode(table.source(), IntStream.range(0, n).map(table::storageColumn).boxed().toList(), table.schema());
    }
}
