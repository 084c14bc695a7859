package io.warpdb.exec.gpu;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;

/** The GPU executor: M-BSP operators as CUDA kernels launched through the JCuda driver API. */
public final class GpuExecutorProvider implements ExecutorProvider {
    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public Support availability() {
        return Support.no("the GPU executor is not built yet");
    }

    @Override
    public Support supports(PlanNode node) {
        return availability();
    }

    @Override
    public BatchStream execute(PlanNode plan, ExecContext context) {
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "the GPU executor is not built yet");
    }
}
