package io.warpdb.exec.gpu.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the differential tests: a fresh Arrow allocator per test, runs of a plan on the CPU
 * executor and of a GPU operator over the same batches, and after each test the check that
 * neither Arrow nor the device pool holds anything any more.
 */
public abstract class GpuTestBase {
    protected RootAllocator allocator;

    @BeforeEach
    void openAllocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void checkNoLeaks() {
        long arrowBytes = allocator.getAllocatedMemory();
        allocator.close();
        assertEquals(0, arrowBytes, "Arrow memory left allocated");
        if (GpuTests.gpuAvailable()) {
            for (CudaDevice device : CudaDevice.devices()) {
                assertEquals(List.of(), device.pool().liveOwners(), device.label() + ": device buffers left allocated");
            }
        }
    }

    /** Asserts that an out-of-core note names every device the executor uses, with what it ran (e.g. "partitions per device: gpu0 12"). */
    protected static void assertDealtOverEveryDevice(NodeStats stats, String dealt, String context) {
        String note = stats.notes().stream().filter(n -> n.contains(dealt + " per device: ")).findFirst()
                .orElseThrow(() -> new AssertionError(context + ": no '" + dealt + " per device' in " + stats.notes()));
        for (CudaDevice device : CudaDevice.devices()) {
            assertTrue(note.contains(device.label() + " "), context + ": " + device.label() + " missing from " + note);
        }
    }

    /**
     * Asserts that the GPU executor accepts every node of {@code plan} ({@link GpuExecutorProvider#planSupport},
     * which needs no device), so that a differential run of it tests the GPU's operators, not the CPU fallback.
     */
    public static void assertAcceptedByGpu(PlanNode plan) {
        io.warpdb.core.exec.Support support = GpuExecutorProvider.planSupport(plan);
        assertTrue(support.supported(), plan.describe() + ": " + support.reason());
        plan.inputs().forEach(GpuTestBase::assertAcceptedByGpu);
    }

    /** A scan of every column of {@code source}, the input of the plan under test. */
    protected static ScanNode scan(ListSource source) {
        return new ScanNode(source, source.allColumns(), source.schema());
    }

    /** The rows the CPU executor produces for {@code plan}. */
    protected List<List<Object>> cpuRows(PlanNode plan) {
        try (ExecContext context = new ExecContext(allocator)) {
            return ResultAssert.rows(new CpuExecutorProvider().execute(plan, context));
        }
    }

    /** Uploads the source's batches, applies {@code operator} on the GPU and downloads its rows. */
    protected List<List<Object>> gpuRows(ListSource source, BiFunction<DeviceTable, DeviceWork, DeviceTable> operator) {
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                DeviceTable input = HostToDevice.upload(source.schema(), source.batches(), work);
                DeviceTable output = operator.apply(input, work);
                Batch batch = DeviceToHost.download(output, 0, output.rows(), allocator, work)) {
            return ResultAssert.rows(List.of(batch));
        }
    }

    /** A GPU operator over two inputs (a join: left, right). */
    @FunctionalInterface
    protected interface TwoInputOperator {
        DeviceTable apply(DeviceTable left, DeviceTable right, DeviceWork work);
    }

    /** Uploads both sources' batches, applies {@code operator} on the GPU and downloads its rows. */
    protected List<List<Object>> gpuRows(ListSource left, ListSource right, TwoInputOperator operator) {
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                DeviceTable leftInput = HostToDevice.upload(left.schema(), left.batches(), work);
                DeviceTable rightInput = HostToDevice.upload(right.schema(), right.batches(), work);
                DeviceTable output = operator.apply(leftInput, rightInput, work);
                Batch batch = DeviceToHost.download(output, 0, output.rows(), allocator, work)) {
            return ResultAssert.rows(List.of(batch));
        }
    }

    /** As {@link #assertSameResult(PlanNode, ListSource, BiFunction, boolean, String)} for two inputs, as multisets. */
    protected void assertSameResult(PlanNode plan, ListSource left, ListSource right, TwoInputOperator operator, String context) {
        assertSameResult(plan, () -> gpuRows(left, right, operator), false, context);
    }

    /**
     * Runs both sides: equal rows (as multisets, or in order when {@code ordered}), or, when the
     * CPU fails with a SQLSTATE, the same failure on the GPU. The seed is in {@code context}.
     */
    protected void assertSameResult(PlanNode plan, ListSource source,
            BiFunction<DeviceTable, DeviceWork, DeviceTable> operator, boolean ordered, String context) {
        assertSameResult(plan, () -> gpuRows(source, operator), ordered, context);
    }

    /** As {@link #assertSameResult(PlanNode, ListSource, BiFunction, boolean, String)} with the whole plan on the GPU executor. */
    protected void assertSameOnGpu(PlanNode plan, boolean ordered, String context) {
        assertSameResult(plan, () -> planRows(plan, "gpu"), ordered, context);
    }

    private void assertSameResult(PlanNode plan, Supplier<List<List<Object>>> gpu, boolean ordered, String context) {
        List<List<Object>> expected;
        try {
            expected = cpuRows(plan);
        } catch (WarpException e) {
            WarpException failure = assertThrows(WarpException.class, gpu::get,
                    context + ": the CPU failed with " + e.sqlState() + " (" + e.getMessage() + ")");
            assertEquals(e.sqlState(), failure.sqlState(), context + ": SQLSTATE of " + failure.getMessage());
            return;
        }
        List<List<Object>> actual = gpu.get();
        if (ordered) {
            ResultAssert.assertSameOrderedRows(expected, actual, context);
        } else {
            ResultAssert.assertSameRows(expected, actual, context);
        }
    }

    /**
     * The rows of {@code plan} with every node placed on {@code executor}, run through the executor
     * SPI; a node the executor refuses falls back on the CPU, as placement has it.
     */
    protected List<List<Object>> planRows(PlanNode plan, String executor) {
        try (ExecContext context = placedContext(plan, executor)) {
            return ResultAssert.rows(context.run(plan));
        }
    }

    /**
     * Runs {@code plan} on a GPU executor whose queries may hold {@code deviceBudget} bytes of
     * device memory, asserts the CPU's rows (as multisets) and that the GPU ran the root itself,
     * and returns the root's statistics.
     */
    protected NodeStats assertSameOnGpuWithBudget(PlanNode plan, long deviceBudget, String context) {
        return assertSameOnGpuWithBudget(plan, deviceBudget, false, context);
    }

    /** As {@link #assertSameOnGpuWithBudget(PlanNode, long, String)}, the rows compared in order when {@code ordered}. */
    protected NodeStats assertSameOnGpuWithBudget(PlanNode plan, long deviceBudget, boolean ordered, String context) {
        return runOnGpuAsOnCpu(plan, deviceBudget, ordered, context).stats(plan);
    }

    /**
     * Runs {@code plan} on the GPU within {@code deviceBudget}, checks its rows against the CPU's
     * and that its root ran on the GPU; returns the run's context, whose statistics stay to be read.
     */
    protected ExecContext runOnGpuAsOnCpu(PlanNode plan, long deviceBudget, boolean ordered, String context) {
        List<List<Object>> expected = cpuRows(plan);
        ExecContext gpu = placedContext(plan, "gpu", new GpuExecutorProvider(deviceBudget));
        List<List<Object>> actual;
        try (BatchStream stream = gpu.run(plan)) {
            actual = ResultAssert.rows(stream);
        }
        if (ordered) {
            ResultAssert.assertSameOrderedRows(expected, actual, context);
        } else {
            ResultAssert.assertSameRows(expected, actual, context);
        }
        NodeStats stats = gpu.stats(plan);
        assertEquals("gpu", stats.executor(), context + ": notes " + stats.notes());
        return gpu;
    }

    /** A context with every node of {@code plan} placed on {@code executor} (the CPU as fallback); its statistics stay to be read. */
    protected ExecContext placedContext(PlanNode plan, String executor) {
        return placedContext(plan, executor, new GpuExecutorProvider());
    }

    /** As {@link #placedContext(PlanNode, String)}, with {@code gpu} as the GPU executor (e.g. one with a small device budget). */
    protected ExecContext placedContext(PlanNode plan, String executor, GpuExecutorProvider gpu) {
        Map<PlanNode, String> placement = new IdentityHashMap<>();
        placeAll(plan, executor, placement);
        Map<PlanNode, String> fallbacks = new IdentityHashMap<>();
        placeAll(plan, "cpu", fallbacks);
        return new ExecContext(allocator,
                new ExecutorRegistry(List.of(new CpuExecutorProvider(), gpu)), placement, fallbacks);
    }

    private static void placeAll(PlanNode node, String executor, Map<PlanNode, String> placement) {
        placement.put(node, executor);
        node.inputs().forEach(in -> placeAll(in, executor, placement));
    }

    /** One projection of each expression over a scan of {@code source}: one expression's error does not hide the others' results. */
    protected static List<PlanNode> projections(ListSource source, List<Expr> exprs) {
        return exprs.stream().<PlanNode>map(e -> new ProjectNode(scan(source), List.of(e), Schema.of(new Field("f", e.type())))).toList();
    }

    /**
     * Per {@code options}: {@code rows} random rows of {@code schema} from {@code seed}, and each of
     * {@code plans} over them on the GPU executor as on the CPU (rows as multisets, or the same
     * SQLSTATE). Skipped without a device.
     */
    protected void assertPlansSameOnGpu(Schema schema, int rows, long seed, List<RandomBatches.Options> options,
            Function<ListSource, List<PlanNode>> plans) {
        GpuTests.assumeGpu();
        for (RandomBatches.Options o : options) {
            try (ListSource source = randomSource(new RandomBatches(seed), schema, rows, o)) {
                String context = "seed " + seed + ", " + rows + " rows, " + o;
                for (PlanNode plan : plans.apply(source)) {
                    assertSameOnGpu(plan, false, context + ": " + plan.describe());
                }
            }
        }
    }

    /** A source over random batches (owned by the caller, who closes it). */
    protected ListSource randomSource(RandomBatches random, Schema schema, int rows, RandomBatches.Options options) {
        return new ListSource(schema, random.generate(schema, rows, options, allocator));
    }
}
