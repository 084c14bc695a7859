package io.warpdb.exec.gpu.window;

import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;

/**
 * ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST and NTILE (window/ranking.cu): each sorted
 * position's number from its partition's and peer group's bounds, all positions at once.
 */
final class RankingColumn {
    private RankingColumn() {
    }

    static boolean applies(WindowFunction function) {
        return function.ordinal() <= WindowFunction.NTILE.ordinal();
    }

    static DeviceColumn of(WindowCall call, WindowSegments segments, DeviceWork work) {
        long buckets = call.function() == WindowFunction.NTILE ? call.constantArgument(0, -1, 1) : 0;
        int rows = segments.rows();
        int width = DeviceColumn.width(call.type());
        DeviceBuffer values = work.allocate((long) rows * width, "window ranks");
        try {
            work.kernel("window/ranking", "ranking").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                    call.function().ordinal(), buckets, segments.partId(), segments.partStarts(), segments.peerId(),
                    segments.peerStarts(), rows, width, values);
            return new DeviceColumn(call.type(), rows, values, null, null);
        } catch (RuntimeException e) {
            values.close();
            throw e;
        }
    }
}
