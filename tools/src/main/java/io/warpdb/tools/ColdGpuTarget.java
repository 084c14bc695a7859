package io.warpdb.tools;

import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.runtime.TransferCounters;
import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.ResultTable;
import io.warpdb.tpch.TpchQuery;
import io.warpdb.tpch.TransferReport;
import io.warpdb.tpch.WarpDbTarget;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPU executor with its device column cache emptied before every query, so that a query's
 * time includes reading the tables' columns and copying them to the device. The benchmark label
 * is {@value #LABEL}; plain {@code gpu} measures the data resident in device memory after the
 * warm-up run. It keeps, per query text, what the last of its runs that completed copied to the
 * device ({@link TransferCounters}; the benchmark runs one query at a time).
 */
final class ColdGpuTarget implements QueryTarget, AutoCloseable {
    static final String LABEL = "gpu-cold";

    private final WarpDbTarget gpu;
    private final Map<String, TransferCounters.Totals> lastTransfers = new HashMap<>();

    ColdGpuTarget(WarpDbTarget gpu) {
        this.gpu = gpu;
    }

    @Override
    public String name() {
        return gpu.name() + " with columns copied in";
    }

    @Override
    public ResultTable query(String sql) {
        GpuExecutorProvider.evictCachedColumns();
        TransferCounters.Totals before = TransferCounters.totals();
        ResultTable result = gpu.query(sql);
        lastTransfers.put(sql, TransferCounters.totals().since(before));
        return result;
    }

    /** The copies of each query's last run here, in the given order; queries that never ran are left out. */
    TransferReport transfers(List<TpchQuery> queries) {
        return new TransferReport(LABEL, queries.stream().filter(q -> lastTransfers.containsKey(q.sql())).map(q -> {
            TransferCounters.Totals t = lastTransfers.get(q.sql());
            return new TransferReport.QueryTransfer(q.name(), t.bytesToDevice(), t.scannedColumnBytes());
        }).toList());
    }

    @Override
    public void close() {
        gpu.close();
    }
}
