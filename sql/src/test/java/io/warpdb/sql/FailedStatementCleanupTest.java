package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.junit.jupiter.api.Test;

/**
 * A statement that fails while it starts (as the GPU executor runs its whole plan before the
 * first batch) reports its own failure, also when the operator that failed left buffers of the
 * statement's allocator open: the leak the allocator's close reports rides along, suppressed,
 * instead of replacing it (TPC-H q08 on the cluster: "Memory was leaked by query" as an internal error).
 */
class FailedStatementCleanupTest {
    /** Runs aggregations: leaves a buffer of the statement open and fails, as an operator with a leaky error path would. */
    static final class LeakingExecutor extends AggregationOnlyExecutor {
        ArrowBuf left;

        LeakingExecutor() {
            super("leaking");
        }

        @Override
        public BatchStream execute(PlanNode plan, ExecContext context) {
            left = context.allocator().buffer(1024);
            throw new WarpException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
    }

    @Test
    void theStatementsFailureIsReportedWithTheLeakSuppressed() {
        LeakingExecutor leaking = new LeakingExecutor();
        ExecutorRegistry executors = new ExecutorRegistry(List.of(new CpuExecutorProvider(), leaking));
        // Not closed: the leaked buffer stays charged to the database's allocator, whose close would report it.
        Database db = Database.inMemory("leak", executors);
        try (Session session = db.newSession()) {
            session.execute("create table t (k integer)", List.of()).close();
            session.execute("insert into t values (1), (2), (2)", List.of()).close();
            session.setExecutor("leaking");
            WarpException e = assertThrows(WarpException.class,
                    () -> session.execute("select k, count(*) from t group by k", List.of()).close());
            assertEquals(SqlState.DIVISION_BY_ZERO.code(), e.sqlState());
            assertTrue(Arrays.stream(e.getSuppressed()).anyMatch(s -> String.valueOf(s.getMessage()).contains("Memory was leaked")),
                    "the leak, suppressed: " + Arrays.toString(e.getSuppressed()));
            session.setExecutor("cpu");
            try (StatementResult r = session.execute("select count(*) from t", List.of())) {
                assertEquals(List.of(List.of(3L)), r.rows());
            }
        }
    }
}
