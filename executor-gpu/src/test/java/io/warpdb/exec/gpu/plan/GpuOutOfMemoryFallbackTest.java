package io.warpdb.exec.gpu.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DevicePool;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A GPU out-of-memory error never fails a query: the GPU refuses the node, the context reruns it
 * on the fallback placement gave it (the CPU), and its statistics say so.
 */
class GpuOutOfMemoryFallbackTest extends GpuTestBase {
    @Test
    void exhaustedDeviceMemoryFallsBackToTheCpu() {
        GpuTests.assumeGpu();
        CudaDevice device = CudaDevice.get();
        DevicePool pool = device.pool();
        Schema schema = Schema.of(new Field("a", DataType.BIGINT), new Field("b", DataType.INTEGER));
        try (ListSource source = randomSource(new RandomBatches(7), schema, 200_000, RandomBatches.Options.plain().withNulls(0.1))) {
            Expr sum = Call.of(Op.ADD, DataType.BIGINT, new ColumnRef(0, DataType.BIGINT),
                    Call.of(Op.MULTIPLY, DataType.BIGINT, new ColumnRef(1, DataType.INTEGER), Literal.ofLong(3, DataType.BIGINT)));
            PlanNode plan = new ProjectNode(scan(source), List.of(sum), Schema.of(new Field("s", DataType.BIGINT)));
            List<List<Object>> expected = cpuRows(plan);

            GpuExecutorProvider.cache(device).evictAll();
            // Leave less free device memory than one input column needs.
            try (DeviceBuffer hog = pool.allocate(pool.capacity() - pool.used() - (1 << 20), "test: memory hog")) {
                Map<PlanNode, String> placement = new IdentityHashMap<>();
                placement.put(plan, "gpu");
                placement.put(plan.inputs().get(0), "gpu");
                Map<PlanNode, String> fallbacks = new IdentityHashMap<>();
                fallbacks.put(plan, "cpu");
                fallbacks.put(plan.inputs().get(0), "cpu");
                ExecContext context = new ExecContext(allocator,
                        new ExecutorRegistry(List.of(new CpuExecutorProvider(), new GpuExecutorProvider())), placement, fallbacks);
                List<List<Object>> actual;
                try (BatchStream stream = context.run(plan)) {
                    actual = ResultAssert.rows(stream);
                }
                ResultAssert.assertSameOrderedRows(expected, actual, "projection after a GPU out-of-memory error");
                assertTrue(context.stats(plan).notes().stream().anyMatch(n -> n.startsWith("gpu out of memory") && n.endsWith(": reran on cpu")),
                        "notes: " + context.stats(plan).notes());
                assertEquals("cpu", context.stats(plan).executor());
            }
        }
    }
}
