package io.warpdb.exec.gpu.join;

import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.PrefixSum;

/**
 * Hash join pairs for INNER, LEFT, SEMI and ANTI equi-joins (join/hash_join.cu), as in section
 * 3.3 of Gao and Sakharnykh: the right input builds an open-addressing hash table of (hash, row
 * id) entries at most half full; the left input probes it twice, counting each row's output rows
 * and then, at offsets from their prefix sum, writing (left row, right row) pairs, -1 where a
 * LEFT join row matched nothing. NULL keys never match, so ANTI outputs the left rows with a
 * NULL key, as the CPU does. {@link GpuJoin} decides which side builds.
 */
public final class GpuHashJoin {
    private static final String MODULE = "join/hash_join";

    private GpuHashJoin() {
    }

    /**
     * The pairs of {@code kind} (INNER, LEFT, SEMI or ANTI) on the keys of {@code node}: the left
     * input probes, the right one builds; the residual is not looked at.
     */
    static JoinPairs match(JoinKind kind, JoinNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        int probeRows = left.rows();
        int buildRows = right.rows();
        long slots = tableSlots(buildRows);
        int mode = mode(kind);
        try (DeviceJoinKeys keys = DeviceJoinKeys.of(node, left, right, work);
                DeviceBuffer table = work.allocate(slots * Long.BYTES, "join hash table");
                DeviceBuffer outputRows = work.allocate((long) probeRows * Integer.BYTES, "join output rows per probe row");
                DeviceBuffer total = work.allocateZeroed(Long.BYTES, "join output row total");
                DeviceBuffer offsets = work.allocate(((long) probeRows + 1) * Integer.BYTES, "join output offsets")) {
            table.fill((byte) 0xFF, slots * Long.BYTES, work.stream());
            long mask = slots - 1;
            work.kernel(MODULE, "build_table").launch(work.stream(), GridSize.strided(buildRows, work), GridSize.BLOCK, 0,
                    keys.buildDescriptors(), keys.count(), buildRows, table, mask);
            work.kernel(MODULE, "probe_count").launch(work.stream(), GridSize.strided(probeRows, work), GridSize.BLOCK, 0,
                    keys.probeDescriptors(), keys.buildDescriptors(), keys.count(), probeRows, table, mask, mode, outputRows, total);
            long count = work.downloadLongs(total, 1)[0];
            if (count > Integer.MAX_VALUE) {
                throw new GpuOutOfMemoryException("a GPU join result holds at most 2^31-1 rows, not " + count);
            }
            PrefixSum.exclusive(outputRows, offsets, probeRows, work);
            DeviceBuffer probeIds = work.allocate(count * Integer.BYTES, "join probe row ids");
            DeviceBuffer buildIds = null;
            try {
                if (kind.outputsRight()) {
                    buildIds = work.allocate(count * Integer.BYTES, "join build row ids");
                }
                work.kernel(MODULE, "probe_write").launch(work.stream(), GridSize.strided(probeRows, work), GridSize.BLOCK, 0,
                        keys.probeDescriptors(), keys.buildDescriptors(), keys.count(), probeRows, table, mask, mode, offsets,
                        probeIds, buildIds);
                return new JoinPairs(probeIds, buildIds, (int) count);
            } catch (RuntimeException e) {
                probeIds.close();
                if (buildIds != null) {
                    buildIds.close();
                }
                throw e;
            }
        }
    }

    /**
     * Slots of the hash table for {@code buildRows} rows: a power of two at least twice as large
     * (at most half full, so that every probe ends at an empty slot soon), and at least 2.
     */
    static long tableSlots(long buildRows) {
        long wanted = Math.max(2, 2 * buildRows);
        return Long.highestOneBit(wanted - 1) << 1;
    }

    /** The kernels' output mode (MODE_* in hash_join.cu). */
    private static int mode(JoinKind kind) {
        return switch (kind) {
            case INNER -> 0;
            case LEFT -> 1;
            case SEMI -> 2;
            case ANTI -> 3;
            case RIGHT, FULL -> throw new IllegalArgumentException(kind + " pairs come from the sort-merge join or"
                    + " from completing inner pairs");
        };
    }
}
