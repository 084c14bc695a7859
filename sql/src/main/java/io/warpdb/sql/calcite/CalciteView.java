package io.warpdb.sql.calcite;

import io.warpdb.sql.ViewCatalog;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/** A view as Calcite sees it: its row type comes from validating its query, and using it expands the query in place. */
final class CalciteView extends AbstractTable implements TranslatableTable {
    private final ViewCatalog.View view;
    private final CalcitePlanner planner;
    /** Validating the view's query is not cheap, and Calcite asks for the row type many times. */
    private RelDataType rowType;

    CalciteView(ViewCatalog.View view, CalcitePlanner planner) {
        this.view = view;
        this.planner = planner;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        if (rowType == null) {
            rowType = planner.viewRowType(view.query(), view.columnNames());
        }
        return rowType;
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
        RelNode expanded = context.expandView(table.getRowType(), view.query(), List.of(CalcitePlanner.SCHEMA),
                List.of(CalcitePlanner.SCHEMA, view.name())).project();
        return RelOptUtil.createCastRel(expanded, table.getRowType(), true);
    }
}
