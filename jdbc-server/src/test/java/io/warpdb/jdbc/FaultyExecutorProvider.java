package io.warpdb.jdbc;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Schema;

/**
 * A test executor that fails with an {@link AssertionError}, the kind of failure a bug throws:
 * while the statement is placed (planning) when the plan reads a table named
 * {@value #FAILS_IN_PLANNING}, and while its rows are fetched when it reads one named
 * {@value #FAILS_IN_EXECUTION}. It is available only while the system property
 * {@value #ENABLED} is {@code true}, so that {@code executor=auto} elsewhere never meets it.
 */
public final class FaultyExecutorProvider implements ExecutorProvider {
    static final String ENABLED = "warpdb.test.faultyExecutor";
    static final String FAILS_IN_PLANNING = "fails_in_planning";
    static final String FAILS_IN_EXECUTION = "fails_in_execution";

    @Override
    public String name() {
        return "faulty";
    }

    @Override
    public Support availability() {
        return Boolean.getBoolean(ENABLED) ? Support.YES : Support.no("a fault-injection executor for tests");
    }

    @Override
    public Support supports(PlanNode node) {
        if (reads(node, FAILS_IN_PLANNING)) {
            throw new AssertionError("injected failure while planning");
        }
        return reads(node, FAILS_IN_EXECUTION) ? Support.YES : Support.no("it runs only " + FAILS_IN_EXECUTION);
    }

    @Override
    public BatchStream execute(PlanNode plan, ExecContext context) {
        return new BatchStream() {
            @Override
            public Schema schema() {
                return plan.schema();
            }

            @Override
            public Batch next() {
                throw new AssertionError("injected failure while executing");
            }

            @Override
            public void close() {
            }
        };
    }

    private static boolean reads(PlanNode node, String table) {
        if (node instanceof ScanNode scan && scan.table().name().equalsIgnoreCase(table)) {
            return true;
        }
        return node.inputs().stream().anyMatch(input -> reads(input, table));
    }
}
