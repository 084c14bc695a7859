package io.warpdb.exec.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.HostEvaluator;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The host evaluator the class path offers is the CPU executor's, and it evaluates over every row. */
class CpuHostEvaluatorTest extends ExecTestBase {
    @Test
    void isFoundOnTheClassPathAndEvaluatesEachRow() {
        HostEvaluator host = HostEvaluator.load();
        assertInstanceOf(CpuHostEvaluator.class, host);
        TestTable phones = TestTable.of("phones", "id", INT, "phone", VARCHAR)
                .batch(row(1, "13-555"), row(2, "17-000"), row(3, null));
        Schema schema = Schema.of(new Field("prefix", VARCHAR), new Field("next", INT));
        try (BatchStream values = host.evaluate(phones,
                List.of(call(Op.SUBSTRING, VARCHAR, col(1, VARCHAR), lit(1), lit(2)),
                        call(Op.ADD, INT, col(0, INT), lit(1))),
                schema, new ExecContext(allocator))) {
            assertEquals(schema, values.schema());
            assertEquals(List.of(row("13", 2), row("17", 3), row(null, 4)), Batches.drainRows(values));
        }
    }
}
