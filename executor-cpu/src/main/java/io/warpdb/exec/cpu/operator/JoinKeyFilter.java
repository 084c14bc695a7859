package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.exec.cpu.hash.LongJoinTable;
import java.util.List;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Sideways information passing in a pipeline: selects the scanned rows whose key can match
 * the build side of an inner or semi join higher up, or the indexed left rows of the SEMI or
 * ANTI join the pipeline streams into ({@link LeftBuildSemiJoinOperator}), before any join
 * gathers them. Each join lends its build's probe filter ({@link LongJoinTable#retainMayContain}),
 * tested on the scan's key column straight from the Arrow buffer. In TPC-H Q5 lineitem's 6 M rows meet the orders of 1994
 * (15 % pass) and Asia's suppliers (20 %): filtered together at the scan, 3 % of the rows reach
 * the joins, where otherwise the first join gathers 910 K rows for the second to drop most.
 *
 * <p>The operator that reads the scan runs the selection itself, after its own filter's cheap
 * conjuncts (see {@link RowFilter}), so that the rows are gathered once; {@link JoinKeyFilterOperator}
 * runs it where no such operator is. One instance per copy of a pipeline: it counts what passes.
 * A filter that keeps more than {@link #USELESS_PASS_RATE} of the rows it has tested, once it
 * has tested {@link #TRIAL_ROWS}, is turned off: it would cost more than the gathers it saves.
 */
final class JoinKeyFilter {
    static final double USELESS_PASS_RATE = 0.9;
    static final long TRIAL_ROWS = 100_000;

    /** A scan column holding the probe key of a join whose build must match it. */
    record KeyFilter(int column, JoinBuild build) {
    }

    private final List<KeyFilter> filters;
    private LongJoinTable[] tables;
    private long[] tested;
    private long[] passed;
    /** The filters in the order they run. */
    private int[] order;

    JoinKeyFilter(List<KeyFilter> filters) {
        this.filters = List.copyOf(filters);
    }

    /**
     * Writes to {@code out} the rows of {@code selected} (or the first {@code count} rows when
     * null) whose keys all may match; returns their count. {@code out} may be {@code selected}.
     * The filters go in the order of the share of rows they have kept so far, the smallest first,
     * so that the most selective one tests every row and the others what it keeps (TPC-H Q21's
     * lineitem scan: Saudi Arabia's suppliers keep 4 %, the orders with status F 49 %).
     */
    int select(Batch in, int[] selected, int count, int[] out) {
        if (tables == null) {
            loadFilters();
        }
        orderBySelectivity();
        int[] rows = selected;
        for (int i = 0; i < order.length && count > 0; i++) {
            int f = order[i];
            if (tables[f] == null) {
                continue;
            }
            int kept = retain(in.vector(filters.get(f).column()), tables[f], rows, count, out);
            tested[f] += count;
            passed[f] += kept;
            if (tested[f] >= TRIAL_ROWS && passed[f] > USELESS_PASS_RATE * tested[f]) {
                tables[f] = null;
            }
            rows = out;
            count = kept;
        }
        if (rows != out) {
            for (int i = 0; i < count; i++) {
                out[i] = rows == null ? i : rows[i];
            }
        }
        return count;
    }

    /** Sorts {@link #order} by the share of tested rows each filter kept (untested: 0), ascending. */
    private void orderBySelectivity() {
        for (int i = 1; i < order.length; i++) {
            int f = order[i];
            int j = i;
            for (; j > 0 && keptShare(order[j - 1]) > keptShare(f); j--) {
                order[j] = order[j - 1];
            }
            order[j] = f;
        }
    }

    private double keptShare(int filter) {
        return tested[filter] == 0 ? 0 : (double) passed[filter] / tested[filter];
    }

    /** Builds the joins' hash tables (each once, shared with the probes) and takes their filters. */
    private void loadFilters() {
        LongJoinTable[] loaded = new LongJoinTable[filters.size()];
        for (int f = 0; f < loaded.length; f++) {
            JoinBuild build = filters.get(f).build();
            build.ensureBuilt();
            loaded[f] = build.singleKeyTable();
        }
        tested = new long[loaded.length];
        passed = new long[loaded.length];
        order = new int[loaded.length];
        for (int f = 0; f < order.length; f++) {
            order[f] = f;
        }
        tables = loaded;
    }

    /** Writes to {@code out} the rows (of {@code selected}, or all) whose non-NULL key the table may hold; returns their count. */
    private static int retain(FieldVector keys, LongJoinTable table, int[] selected, int count, int[] out) {
        long data = keys.getDataBuffer().memoryAddress();
        int keyBytes = ((BaseFixedWidthVector) keys).getTypeWidth();
        if (keys.getNullCount() == 0) {
            return table.retainMayContain(data, keyBytes, selected, count, out); // the common case, in the table's own loops
        }
        long validity = keys.getValidityBuffer().memoryAddress();
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int row = selected == null ? i : selected[i];
            if ((MemoryUtil.getByte(validity + (row >> 3)) >> (row & 7) & 1) != 0) {
                out[kept++] = row;
            }
        }
        return table.retainMayContain(data, keyBytes, out, kept, out);
    }
}
