package io.warpdb.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node its executor refuses runs on the fallback placement gave it, with a note in its
 * statistics; no executor is chosen by name (there is no "cpu" here, only "accel" and "host").
 */
class ExecContextFallbackTest {
    private static final Schema ONE_INT = Schema.of(new Field("x", DataType.INTEGER));
    private static final String REASON = "accel out of memory (test)";

    private final BufferAllocator allocator = new RootAllocator();
    private final ValuesNode values = new ValuesNode(ONE_INT, List.of(List.of(Literal.ofLong(1, DataType.INTEGER))));
    private final UnionNode union = new UnionNode(List.of(values), ONE_INT);

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    @Test
    void aRefusedNodeRerunsOnItsFallback() {
        ExecContext context = context(refusing(), Map.of(values, "accel"), Map.of(values, "host"));
        assertEquals(List.of(List.of(0), List.of(1), List.of(2)), drain(context.run(values)));
        NodeStats stats = context.stats(values);
        assertEquals(List.of(REASON + ": reran on host"), stats.notes());
        assertEquals("host", stats.executor());
        assertEquals(3, stats.rows());
    }

    @Test
    void withoutAFallbackTheRefusalFailsTheQuery() {
        ExecContext context = context(refusing(), Map.of(values, "accel"), Map.of());
        ExecutorRefused refused = assertThrows(ExecutorRefused.class, () -> context.run(values));
        assertSame(values, refused.node());
        assertEquals(SqlState.OUT_OF_MEMORY, refused.state());
        assertEquals(List.of(), context.stats(values).notes());
    }

    @Test
    void anExecutorGetsARefusedNodeOfItsPartFromTheFallback() {
        // "accel" runs the union itself but gives up on its input, whose result it takes from the fallback.
        ExecutorProvider accel = provider("accel", (node, context) -> {
            BatchStream input = context.runRefused(refusal(values));
            context.stats(node).setExecutor("accel");
            return input;
        });
        ExecContext context = context(accel, placedOnAccel(), Map.of(values, "host"));
        assertEquals(3, drain(context.run(union)).size());
        assertEquals("accel", context.stats(union).executor());
        assertEquals(List.of(), context.stats(union).notes());
        assertEquals("host", context.stats(values).executor());
        assertEquals(List.of(REASON + ": reran on host"), context.stats(values).notes());
    }

    @Test
    void aRefusalOfAnotherNodeIsNotReplacedWhereItPasses() {
        // The input has no fallback: its refusal passes through the run of the union, which has one, unchanged.
        ExecutorProvider accel = provider("accel", (node, context) -> context.runRefused(refusal(values)));
        ExecContext context = context(accel, placedOnAccel(), Map.of(union, "host"));
        ExecutorRefused refused = assertThrows(ExecutorRefused.class, () -> context.run(union));
        assertSame(values, refused.node());
        assertNull(context.stats(union).executor());
        assertEquals(List.of(), context.stats(union).notes());
    }

    private Map<PlanNode, String> placedOnAccel() {
        Map<PlanNode, String> placement = new IdentityHashMap<>();
        placement.put(union, "accel");
        placement.put(values, "accel");
        return placement;
    }

    private ExecContext context(ExecutorProvider accel, Map<PlanNode, String> placement, Map<PlanNode, String> fallbacks) {
        return new ExecContext(allocator, new ExecutorRegistry(List.of(accel, host())), placement, fallbacks);
    }

    private static ExecutorProvider refusing() {
        return provider("accel", (node, context) -> {
            throw refusal(node);
        });
    }

    private static ExecutorRefused refusal(PlanNode node) {
        return new ExecutorRefused(node, SqlState.OUT_OF_MEMORY, REASON, null);
    }

    /** Yields the rows 0, 1, 2 for whatever node, recording nothing (the context meters it). */
    private static ExecutorProvider host() {
        return provider("host", (node, context) -> {
            IntVector x = new IntVector("x", context.allocator());
            x.allocateNew(3);
            for (int i = 0; i < 3; i++) {
                x.set(i, i);
            }
            x.setValueCount(3);
            return Batches.of(ONE_INT, List.of(new Batch(ONE_INT, List.of(x), Collections.singletonList(null), 3)));
        });
    }

    private static ExecutorProvider provider(String name, BiFunction<PlanNode, ExecContext, BatchStream> execute) {
        return new ExecutorProvider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Support availability() {
                return Support.YES;
            }

            @Override
            public Support supports(PlanNode node) {
                return Support.YES;
            }

            @Override
            public BatchStream execute(PlanNode plan, ExecContext context) {
                return execute.apply(plan, context);
            }
        };
    }

    private static List<List<Object>> drain(BatchStream stream) {
        try (stream) {
            return Batches.drainRows(stream);
        }
    }
}
