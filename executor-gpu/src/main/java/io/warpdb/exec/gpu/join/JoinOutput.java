package io.warpdb.exec.gpu.join;

import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;

/** A join's output columns, gathered by its pairs: left columns, then right ones where the kind outputs them. */
final class JoinOutput {
    private JoinOutput() {
    }

    static DeviceTable gather(JoinNode node, DeviceTable left, DeviceTable right, JoinPairs pairs, DeviceWork work) {
        JoinKind kind = node.kind();
        boolean leftMayMiss = kind == JoinKind.RIGHT || kind == JoinKind.FULL;
        boolean rightMayMiss = kind == JoinKind.LEFT || kind == JoinKind.FULL;
        List<DeviceColumn> columns = new ArrayList<>();
        try (DeviceTable leftRows = leftMayMiss ? ColumnGather.gatherOrNull(left, pairs.leftRows(), pairs.count(), work)
                        : ColumnGather.gather(left, pairs.leftRows(), pairs.count(), work);
                DeviceTable rightRows = !kind.outputsRight() ? null
                        : rightMayMiss ? ColumnGather.gatherOrNull(right, pairs.rightRows(), pairs.count(), work)
                        : ColumnGather.gather(right, pairs.rightRows(), pairs.count(), work)) {
            leftRows.columns().forEach(c -> columns.add(c.share()));
            if (rightRows != null) {
                rightRows.columns().forEach(c -> columns.add(c.share()));
            }
            return new DeviceTable(node.schema(), pairs.count(), columns);
        }
    }
}
