package io.warpdb.exec.gpu;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.PlanVisitor;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.plan.SharedNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.aggregate.GpuAggregate;
import io.warpdb.exec.gpu.column.DeviceColumnCache;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.exchange.DeviceRows;
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import io.warpdb.exec.gpu.expr.Unsupported;
import io.warpdb.exec.gpu.join.GpuJoin;
import io.warpdb.exec.gpu.plan.GpuPlanRunner;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBudget;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.sort.GpuSort;
import io.warpdb.exec.gpu.window.GpuWindow;
import java.util.List;

/**
 * The GPU executor: M-BSP operators as CUDA kernels launched through the JCuda driver API (see
 * {@link GpuPlanRunner}). Available when the jar holds the compiled kernels and a CUDA device
 * and driver are present; EXPLAIN shows the reason otherwise, and per node why it stays on the CPU.
 */
public final class GpuExecutorProvider implements ExecutorProvider {
    private static volatile DeviceColumnCache cache;
    /** Device bytes one query may hold; 0: the whole pool. */
    private final long queryBudget;

    /** The provider the service loader makes: a query may use the whole device pool. */
    public GpuExecutorProvider() {
        this(0);
    }

    /**
     * A provider whose queries may each hold at most {@code queryBudget} bytes of device memory on
     * each device (0: the whole pool): tests and benchmarks of work larger than the device, on a device of any
     * size, without a JVM-wide {@code -Dwarpdb.gpu.memory}.
     */
    public GpuExecutorProvider(long queryBudget) {
        if (queryBudget < 0) {
            throw new IllegalArgumentException("a device budget is not negative: " + queryBudget);
        }
        this.queryBudget = queryBudget;
    }

    @Override
    public String name() {
        return GpuPlanRunner.NAME;
    }

    @Override
    public Support availability() {
        return CudaDevice.availability();
    }

    @Override
    public Support supports(PlanNode node) {
        Support available = availability();
        return available.supported() ? planSupport(node) : available;
    }

    /**
     * Whether the GPU executor has an operator for this node (not its inputs), whatever the
     * machine: what {@link #supports} answers where a device is present. Every kind of node takes
     * wide DECIMALs (more than 18 digits, 128 bits a value) where its operator does not refuse
     * them itself (join keys, some aggregates and window frames).
     */
    public static Support planSupport(PlanNode node) {
        try {
            return node.accept(PLAN_SUPPORT);
        } catch (Unsupported e) {
            return Support.no(e.getMessage());
        }
    }

    /** Per node kind, whether the GPU has an operator for it; an expression it cannot compile throws {@link Unsupported}. */
    private static final PlanVisitor<Support> PLAN_SUPPORT = new PlanVisitor<>() {
        @Override
        public Support visitScan(ScanNode scan) {
            return Support.YES;
        }

        @Override
        public Support visitValues(ValuesNode values) {
            return Support.YES;
        }

        @Override
        public Support visitFilter(FilterNode filter) {
            ProgramCompiler.check(types(filter.input().schema()), List.of(filter.condition()));
            return Support.YES;
        }

        @Override
        public Support visitProject(ProjectNode project) {
            ProgramCompiler.check(types(project.input().schema()), project.exprs());
            return Support.YES;
        }

        @Override
        public Support visitAggregate(AggregateNode aggregate) {
            return GpuAggregate.supports(aggregate);
        }

        @Override
        public Support visitJoin(JoinNode join) {
            return GpuJoin.supports(join);
        }

        @Override
        public Support visitSort(SortNode sort) {
            return GpuSort.supports(sort);
        }

        @Override
        public Support visitUnion(UnionNode union) {
            return Support.YES;
        }

        @Override
        public Support visitSetOp(SetOpNode setOp) {
            return Support.YES;
        }

        @Override
        public Support visitWindow(WindowNode window) {
            return GpuWindow.supports(window);
        }

        @Override
        public Support visitShared(SharedNode shared) {
            // Kept where its input runs: a result the CPU makes for CPU uses is not to go through the device.
            return shared.input().accept(this);
        }
    };

    @Override
    public BatchStream execute(PlanNode plan, ExecContext context) {
        CudaDevice device = CudaDevice.get();
        device.bind();
        try {
            DeviceBudget budget = new DeviceBudget(queryBudget == 0 ? device.pool().capacity()
                    : Math.min(queryBudget, device.pool().capacity()));
            return new GpuPlanRunner(context, CudaDevice.devices(), cache(device), budget).execute(plan,
                    result -> new Download(result, plan, context, device));
        } catch (GpuOutOfMemoryException e) {
            // Even the fallback's result of the root could not be copied in: the caller wants host
            // batches anyway, so the root is refused and the fallback's batches pass straight through.
            throw GpuPlanRunner.outOfMemory(plan, e);
        }
    }

    private static List<io.warpdb.core.types.DataType> types(Schema schema) {
        return schema.fields().stream().map(io.warpdb.core.types.Field::type).toList();
    }

    /** The columns cached in device memory across queries (one per JVM, like the device). */
    public static DeviceColumnCache cache(CudaDevice device) {
        if (cache == null) {
            synchronized (GpuExecutorProvider.class) {
                if (cache == null) {
                    cache = new DeviceColumnCache(device.pool());
                }
            }
        }
        return cache;
    }

    /** Drops the columns cached in device memory (benchmarks that include the copies to the device). */
    public static void evictCachedColumns() {
        if (cache != null) {
            cache.evictAll();
        }
    }

    /**
     * Streams a device result to the host in batches of {@link DeviceToHost#BATCH_ROWS} rows, or
     * hands it over whole on the device ({@link #takeResident}) to a reader that works there.
     */
    private static final class Download implements BatchStream {
        private final DeviceTable table;
        private final PlanNode plan;
        private final ExecContext context;
        private final CudaDevice device;
        private int next;
        private boolean closed;

        Download(DeviceTable table, PlanNode plan, ExecContext context, CudaDevice device) {
            this.table = table;
            this.plan = plan;
            this.context = context;
            this.device = device;
        }

        @Override
        public Schema schema() {
            return table.schema();
        }

        @Override
        public Batch next() {
            if (closed || next >= table.rows()) {
                return null;
            }
            context.checkCancelled();
            device.bind();
            int count = Math.min(DeviceToHost.BATCH_ROWS, table.rows() - next);
            try (DeviceWork work = new DeviceWork(device)) {
                Batch b = DeviceToHost.download(table, next, count, context.allocator(), work);
                context.stats(plan).addBytesToHost(work.bytesToHost());
                next += count;
                return b;
            }
        }

        @Override
        public ResidentRows takeResident() {
            if (closed || next > 0) {
                return null;
            }
            context.checkCancelled();
            closed = true;
            return new DeviceRows(table);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                table.close();
            }
        }
    }
}
