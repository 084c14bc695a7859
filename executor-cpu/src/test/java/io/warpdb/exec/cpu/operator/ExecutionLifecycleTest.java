package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Registration, cancellation, early close and failures: no buffer may outlive the query. */
class ExecutionLifecycleTest extends ExecTestBase {
    private static TestTable numbers(int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(row(i, "s" + (i % 10), i % 1000 == 999 ? 0 : i % 7 + 1));
        }
        return TestTable.of("n", "i", INT, "s", VARCHAR, "d", INT).batches(rows, count / 2, 0, count - count / 2);
    }

    @Test
    void providerIsRegisteredAsCpu() {
        ExecutorProvider cpu = ExecutorRegistry.load().require("cpu");
        assertTrue(cpu instanceof CpuExecutorProvider);
        assertTrue(cpu.availability().supported());
        assertTrue(cpu.supports(scan(numbers(2))).supported());
    }

    /** Plans whose expression divides by zero partway through the input, after batches were built. */
    private static List<PlanNode> failingPlans() {
        Expr quotient = call(Op.DIVIDE, INT, col(0, INT), col(2, INT));
        Expr failing = call(Op.GT, BOOL, quotient, lit(-1));
        // The same over the right side of a join (columns 3..5).
        Expr failingOnRight = call(Op.GT, BOOL, call(Op.DIVIDE, INT, col(3, INT), col(5, INT)), lit(-1));
        PlanNode scan = scan(numbers(5000));
        Schema joined = scan.schema().concat(scan.schema());
        AggCall count = new AggCall(AggFunction.COUNT_STAR, List.of(), false, BIGINT, "c");
        return List.of(
                new FilterNode(scan, failing),
                project(scan, col(1, VARCHAR), quotient),
                new AggregateNode(project(scan, col(1, VARCHAR), quotient), List.of(0), List.of(count),
                        new Schema(List.of(new Field("s", VARCHAR), new Field("c", BIGINT)))),
                new JoinNode(scan(numbers(100)), scan, JoinKind.INNER, List.of(1), List.of(1), failingOnRight, joined),
                new JoinNode(scan, scan(numbers(100)), JoinKind.LEFT, List.of(1), List.of(1), failing, joined),
                new JoinNode(scan(numbers(10)), scan, JoinKind.SEMI, List.of(), List.of(), failingOnRight, scan.schema()),
                new SortNode(new FilterNode(scan, failing), List.of(new SortKey(0, false, false)), 0, 10));
    }

    @Test
    void failingQueriesReleaseEverything() {
        for (PlanNode plan : failingPlans()) {
            runFailing(plan, SqlState.DIVISION_BY_ZERO);
            assertEquals(0, allocator.getAllocatedMemory(), plan.describe());
        }
    }

    @Test
    void closingEarlyReleasesEverything() {
        Expr even = call(Op.EQ, BOOL, call(Op.MOD, INT, col(0, INT), lit(2)), lit(0));
        PlanNode plan = new JoinNode(new FilterNode(scan(numbers(4000)), even), scan(numbers(300)), JoinKind.FULL,
                List.of(1), List.of(1), null, numbers(1).schema().concat(numbers(1).schema()));
        try (BatchStream stream = new CpuExecutorProvider().execute(plan, new ExecContext(allocator))) {
            try (Batch first = stream.next()) {
                assertNotNull(first);
            }
        }
    }

    @Test
    void cancellationStopsTheQueryWith57014() {
        ExecContext context = new ExecContext(allocator);
        PlanNode plan = new SortNode(scan(numbers(1000)), List.of(new SortKey(0, true, false)), 0, -1);
        try (BatchStream stream = new CpuExecutorProvider().execute(plan, context)) {
            context.cancel();
            WarpException e = assertThrows(WarpException.class, stream::next);
            assertEquals(SqlState.QUERY_CANCELED, e.state());
        }
    }
}
