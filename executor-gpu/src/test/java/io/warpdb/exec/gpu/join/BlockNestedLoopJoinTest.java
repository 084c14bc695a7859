package io.warpdb.exec.gpu.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.PartitionPlan;
import io.warpdb.exec.gpu.partition.TaskRunner;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

/** The block nested-loop join's host side (no device needed): what it cut into blocks is closed when it fails. */
class BlockNestedLoopJoinTest extends GpuTestBase {
    private static final Schema SIDE = GpuJoinTest.schema(DataType.BIGINT);

    @Test
    void theLeftBlocksAreClosedWhenCuttingTheRightSideRunsOutOfMemory() {
        JoinNode node = GpuJoinTest.join(new ValuesNode(SIDE, List.of()), new ValuesNode(SIDE, List.of()), JoinKind.INNER, List.of(),
                List.of(), null);
        // A stream's share that takes right blocks of 3 rows (and a left block of 1): the right side's second block
        // starts mid-byte of its validity bits, which a slice copies into new memory.
        long streamBudget = 216;
        try (BufferAllocator query = allocator.newChildAllocator("query", 0, Long.MAX_VALUE)) {
            BlockNestedLoopJoin join = new BlockNestedLoopJoin(node, null, query, streamBudget);
            assertEquals(new PartitionPlan.Blocks(1, 3), join.blockRows(1, 20));
            try (HostTable left = table(query, 1); HostTable right = table(query, 20)) {
                // The statement's memory is all taken: the copy of the validity bits fails.
                query.setLimit(query.getAllocatedMemory() + 1024);
                try (ArrowBuf rest = query.buffer(1024)) {
                    assertThrows(OutOfMemoryException.class, () -> join.run(left, right, TaskRunner.on(null)));
                }
            }
            assertEquals(0, query.getAllocatedMemory(), "Arrow memory left allocated by the failed join");
        }
    }

    /** {@code rows} rows 0, 1, ... of one BIGINT column. */
    private static HostTable table(BufferAllocator allocator, int rows) {
        BigIntVector v = new BigIntVector("c0", allocator);
        v.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            v.set(i, i);
        }
        v.setValueCount(rows);
        return new HostTable(SIDE, List.of(new Batch(SIDE, List.<FieldVector>of(v), Arrays.asList(new StringDictionary[1]), rows)));
    }
}
