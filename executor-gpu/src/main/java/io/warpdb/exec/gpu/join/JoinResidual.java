package io.warpdb.exec.gpu.join;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.select.FilterProject;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The candidate pairs of a join (equal keys, or every pair without keys) for which its residual
 * condition is TRUE. Only the columns the condition reads are gathered for the candidates; the
 * fused select (FilterProject) evaluates the condition over them and keeps the pairs' row ids.
 */
final class JoinResidual {
    private static final DataType ROW_ID = DataType.INTEGER.withNullable(false);

    private JoinResidual() {
    }

    static JoinPairs keep(JoinNode node, DeviceTable left, DeviceTable right, JoinPairs candidates, EntryEvaluator entries,
            DeviceWork work) {
        int leftWidth = left.schema().size();
        TreeSet<Integer> read = new TreeSet<>();
        Exprs.forEachColumn(node.residual(), read::add);
        List<Integer> leftColumns = read.headSet(leftWidth).stream().toList();
        List<Integer> rightColumns = read.tailSet(leftWidth).stream().map(c -> c - leftWidth).toList();
        List<Integer> order = new ArrayList<>(read);
        Expr condition = Exprs.remap(node.residual(), order::indexOf);
        int width = order.size();

        List<DeviceColumn> columns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        try (DeviceTable leftValues = ColumnGather.gather(select(left, leftColumns), candidates.leftRows(), candidates.count(), work);
                DeviceTable rightValues = ColumnGather.gather(select(right, rightColumns), candidates.rightRows(), candidates.count(),
                        work)) {
            leftValues.columns().forEach(c -> columns.add(c.share()));
            rightValues.columns().forEach(c -> columns.add(c.share()));
            fields.addAll(leftValues.schema().fields());
            fields.addAll(rightValues.schema().fields());
        }
        // The candidates' row ids ride along as two more columns; the pairs still own them.
        columns.add(new DeviceColumn(ROW_ID, candidates.count(), candidates.leftRows(), null, null));
        columns.add(new DeviceColumn(ROW_ID, candidates.count(), candidates.rightRows(), null, null));
        fields.add(new Field("left_row", ROW_ID));
        fields.add(new Field("right_row", ROW_ID));
        DeviceTable input = new DeviceTable(new Schema(fields), candidates.count(), columns);
        Schema ids = Schema.of(new Field("left_row", ROW_ID), new Field("right_row", ROW_ID));
        DeviceTable kept;
        try {
            kept = FilterProject.run(input, condition, List.of(new ColumnRef(width, ROW_ID), new ColumnRef(width + 1, ROW_ID)),
                    ids, entries, work);
        } finally {
            // Closing the input table would free the pairs' buffers: close only the gathered columns (also when the filter fails).
            columns.subList(0, width).forEach(DeviceColumn::close);
        }
        // The kept ids' buffers pass to the pairs, which free them.
        return new JoinPairs(kept.column(0).values(), kept.column(1).values(), kept.rows());
    }

    /** The table made of some columns of {@code t} (shared, not copied). */
    private static DeviceTable select(DeviceTable t, List<Integer> columns) {
        return new DeviceTable(t.schema().select(columns), t.rows(), columns.stream().map(t::column).toList());
    }
}
