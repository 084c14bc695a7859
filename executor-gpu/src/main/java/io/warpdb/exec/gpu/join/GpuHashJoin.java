package io.warpdb.exec.gpu.join;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.PrefixSum;
import java.util.ArrayList;
import java.util.List;

/**
 * INNER, LEFT, SEMI and ANTI equi-joins on the GPU (join/hash_join.cu). The right input (the
 * planner puts the smaller side there) builds an open-addressing hash table of (hash, row id)
 * entries at most half full; the left input probes it twice, counting each row's output rows and
 * then, at offsets from their prefix sum, writing (left row, right row) pairs, from which the
 * output columns are gathered: left columns then right ones (none for SEMI and ANTI), the right
 * ones NULL where a LEFT join row matched nothing. NULL keys never match, so ANTI outputs the
 * left rows with a NULL key, as the CPU does. Output rows come in no particular order.
 */
public final class GpuHashJoin {
    private static final String MODULE = "join/hash_join";

    private GpuHashJoin() {
    }

    public static Support supports(JoinNode node) {
        if (node.kind() == JoinKind.RIGHT || node.kind() == JoinKind.FULL) {
            return Support.no(node.kind() + " joins run on the CPU until the GPU join tracks which build rows matched");
        }
        if (node.leftKeys().isEmpty()) {
            return Support.no("joins without equality keys run on the CPU until the GPU has a nested-loop join");
        }
        if (node.residual() != null) {
            return Support.no("joins with a condition beyond key equality run on the CPU until the GPU join evaluates residual"
                    + " predicates");
        }
        for (int k = 0; k < node.leftKeys().size(); k++) {
            String reason = JoinKeys.unsupported(node.left().schema().type(node.leftKeys().get(k)),
                    node.right().schema().type(node.rightKeys().get(k)));
            if (reason != null) {
                return Support.no(reason);
            }
        }
        return Support.YES;
    }

    /** Joins {@code left} (probe side) with {@code right} (build side); the inputs stay owned by the caller. */
    public static DeviceTable run(JoinNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        Support support = supports(node);
        if (!support.supported()) {
            throw new IllegalArgumentException(support.reason());
        }
        try (Pairs pairs = matchRows(node, left, right, work)) {
            return gatherOutput(node, left, right, pairs, work);
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

    /** Output row i pairs left row probeIds[i] with right row buildIds[i] (-1: none; buildIds null for SEMI/ANTI). */
    private record Pairs(DeviceBuffer probeIds, DeviceBuffer buildIds, int count) implements AutoCloseable {
        @Override
        public void close() {
            probeIds.close();
            if (buildIds != null) {
                buildIds.close();
            }
        }
    }

    /** Builds the table and probes it; the table is freed before the columns are gathered. */
    private static Pairs matchRows(JoinNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        int probeRows = left.rows();
        int buildRows = right.rows();
        long slots = tableSlots(buildRows);
        int mode = mode(node.kind());
        try (JoinKeys keys = JoinKeys.of(node, left, right, work);
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
                if (node.kind().outputsRight()) {
                    buildIds = work.allocate(count * Integer.BYTES, "join build row ids");
                }
                work.kernel(MODULE, "probe_write").launch(work.stream(), GridSize.strided(probeRows, work), GridSize.BLOCK, 0,
                        keys.probeDescriptors(), keys.buildDescriptors(), keys.count(), probeRows, table, mask, mode, offsets,
                        probeIds, buildIds);
                return new Pairs(probeIds, buildIds, (int) count);
            } catch (RuntimeException e) {
                probeIds.close();
                if (buildIds != null) {
                    buildIds.close();
                }
                throw e;
            }
        }
    }

    /** The kernels' output mode (MODE_* in hash_join.cu). */
    private static int mode(JoinKind kind) {
        return switch (kind) {
            case INNER -> 0;
            case LEFT -> 1;
            case SEMI -> 2;
            case ANTI -> 3;
            case RIGHT, FULL -> throw new IllegalArgumentException(kind + " join on the GPU");
        };
    }

    private static DeviceTable gatherOutput(JoinNode node, DeviceTable left, DeviceTable right, Pairs pairs, DeviceWork work) {
        List<DeviceColumn> columns = new ArrayList<>();
        try (DeviceTable leftRows = ColumnGather.gather(left, pairs.probeIds(), pairs.count(), work);
                DeviceTable rightRows = pairs.buildIds() == null ? null
                        : node.kind() == JoinKind.LEFT ? ColumnGather.gatherOrNull(right, pairs.buildIds(), pairs.count(), work)
                        : ColumnGather.gather(right, pairs.buildIds(), pairs.count(), work)) {
            leftRows.columns().forEach(c -> columns.add(c.share()));
            if (rightRows != null) {
                rightRows.columns().forEach(c -> columns.add(c.share()));
            }
            return new DeviceTable(node.schema(), pairs.count(), columns);
        }
    }
}
