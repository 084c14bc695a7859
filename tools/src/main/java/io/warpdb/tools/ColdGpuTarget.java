package io.warpdb.tools;

import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.ResultTable;
import io.warpdb.tpch.WarpDbTarget;

/**
 * The GPU executor with its device column cache emptied before every query, so that a query's
 * time includes reading the tables' columns and copying them to the device. The benchmark label
 * is {@value #LABEL}; plain {@code gpu} measures the data resident in device memory after the
 * warm-up run.
 */
final class ColdGpuTarget implements QueryTarget, AutoCloseable {
    static final String LABEL = "gpu-cold";

    private final WarpDbTarget gpu;

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
        return gpu.query(sql);
    }

    @Override
    public void close() {
        gpu.close();
    }
}
