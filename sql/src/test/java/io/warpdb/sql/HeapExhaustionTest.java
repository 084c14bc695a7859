package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A statement that exhausts the Java heap (its hash tables and columns are heap arrays, outside
 * the Arrow memory limit) fails with 53200 instead of an OutOfMemoryError, and the session and
 * database go on.
 */
class HeapExhaustionTest {
    /** Runs aggregations and fails them as a heap too small for their hash table would. */
    static final class ExhaustingExecutor extends AggregationOnlyExecutor {
        ExhaustingExecutor() {
            super("exhausting");
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
                    throw new OutOfMemoryError("Java heap space");
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @Test
    void aStatementOutOfHeapFailsWith53200AndTheSessionGoesOn() {
        ExecutorRegistry executors = new ExecutorRegistry(List.of(new CpuExecutorProvider(), new ExhaustingExecutor()));
        try (Database db = Database.inMemory("heap", executors); Session session = db.newSession()) {
            session.execute("create table t (k integer)", List.of()).close();
            session.execute("insert into t values (1), (2), (2)", List.of()).close();
            session.setExecutor("exhausting");
            WarpException e = assertThrows(WarpException.class, () -> {
                try (StatementResult r = session.execute("select k, count(*) from t group by k", List.of())) {
                    r.rows();
                }
            });
            assertEquals(SqlState.OUT_OF_MEMORY.code(), e.sqlState());
            assertTrue(e.getMessage().contains("Java heap"), e.getMessage());
            session.setExecutor("cpu");
            try (StatementResult r = session.execute("select count(*) from t", List.of())) {
                assertEquals(List.of(List.of(3L)), r.rows());
            }
        }
    }
}
