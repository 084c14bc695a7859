package io.warpdb.exec.gpu.window;

import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.List;

/**
 * Where each frame's MIN or MAX lies (window/pick.cu): a sparse table over the sorted positions
 * whose level j holds the position of the extreme non-NULL value of every block of 2^j positions,
 * with as many levels as the longest frame needs. A frame is the better of two overlapping blocks,
 * so no row costs more than two reads whatever its frame; building costs O(rows x levels).
 * Values compare as ordered keys ({@link KeyColumn#of}: a wide DECIMAL as two, its upper
 * word then its lower) with -0.0 equal to 0.0 and, on ties, the later position wins: the row the
 * CPU's sliding deque picks.
 */
final class FrameExtremes {
    private static final String MODULE = "window/pick";

    private FrameExtremes() {
    }

    /** Fills {@code source} with each frame's extreme's sorted position, -1 where the frame has no value. */
    static void sources(DeviceColumn values, boolean max, WindowSegments segments, WindowFrames.Bounds frame, DeviceBuffer source,
            DeviceWork work) {
        int rows = segments.rows();
        int levels = WindowFrames.levels(frame, rows, work);
        int grid = GridSize.strided(rows, work);
        List<KeyColumn> keyColumns = KeyColumn.of(values, true, work);
        int numKeys = keyColumns.size();
        try (DeviceBuffer sources = WindowSegments.keySources(keyColumns, work);
                DeviceBuffer keys = work.allocate((long) rows * numKeys * Long.BYTES, "window extreme keys");
                DeviceBuffer table = work.allocate((long) levels * rows * Integer.BYTES, "window extreme table")) {
            work.kernel(MODULE, "extreme_leaves").launch(work.stream(), grid, GridSize.BLOCK, 0, sources, numKeys,
                    segments.sorted(), rows, keys, table);
            for (int j = 1; j < levels; j++) {
                work.kernel(MODULE, "extreme_level").launch(work.stream(), grid, GridSize.BLOCK, 0,
                        table.pointer((long) (j - 1) * rows * Integer.BYTES), keys, numKeys, rows, 1 << (j - 1), max ? 1 : 0,
                        table.pointer((long) j * rows * Integer.BYTES));
            }
            work.kernel(MODULE, "extreme_sources").launch(work.stream(), grid, GridSize.BLOCK, 0, table, keys, numKeys,
                    frame.start(), frame.end(), rows, max ? 1 : 0, source);
        } finally {
            keyColumns.forEach(KeyColumn::close);
        }
    }
}
