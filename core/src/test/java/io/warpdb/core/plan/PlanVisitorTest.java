package io.warpdb.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/** Every node kind's {@code accept} calls the visitor's method for that kind, with the node itself. */
class PlanVisitorTest {
    private static final Schema ONE_INT = Schema.of(new Field("x", DataType.INTEGER));

    /** Names the method it was called through, after checking it got the node it was given. */
    private record KindNamer(PlanNode expected) implements PlanVisitor<String> {
        private String named(PlanNode node, String kind) {
            assertSame(expected, node);
            return kind;
        }

        @Override
        public String visitScan(ScanNode scan) {
            return named(scan, "scan");
        }

        @Override
        public String visitValues(ValuesNode values) {
            return named(values, "values");
        }

        @Override
        public String visitFilter(FilterNode filter) {
            return named(filter, "filter");
        }

        @Override
        public String visitProject(ProjectNode project) {
            return named(project, "project");
        }

        @Override
        public String visitAggregate(AggregateNode aggregate) {
            return named(aggregate, "aggregate");
        }

        @Override
        public String visitJoin(JoinNode join) {
            return named(join, "join");
        }

        @Override
        public String visitSort(SortNode sort) {
            return named(sort, "sort");
        }

        @Override
        public String visitUnion(UnionNode union) {
            return named(union, "union");
        }

        @Override
        public String visitSetOp(SetOpNode setOp) {
            return named(setOp, "setOp");
        }

        @Override
        public String visitWindow(WindowNode window) {
            return named(window, "window");
        }

        @Override
        public String visitShared(SharedNode shared) {
            return named(shared, "shared");
        }
    }

    @Test
    void eachKindReachesItsOwnMethod() {
        ValuesNode values = new ValuesNode(ONE_INT, List.of(List.of(Literal.ofLong(1, DataType.INTEGER))));
        ColumnRef x = new ColumnRef(0, DataType.INTEGER);
        List<PlanNode> nodes = List.of(
                ScanNode.of(new EmptyTable(), List.of(0)),
                values,
                new FilterNode(values, Literal.ofBoolean(true)),
                new ProjectNode(values, List.of(x), ONE_INT),
                new AggregateNode(values, List.of(0), List.of(), ONE_INT),
                new JoinNode(values, values, JoinKind.SEMI, List.of(0), List.of(0), null, ONE_INT),
                new SortNode(values, List.of(new SortKey(0, false, false)), 0, -1),
                new UnionNode(List.of(values, values), ONE_INT),
                new SetOpNode(SetOpKind.EXCEPT, false, values, values, ONE_INT),
                new WindowNode(values, List.of(), List.of(), List.of(), ONE_INT),
                new SharedNode(1, values));
        List<String> kinds = nodes.stream().map(node -> node.accept(new KindNamer(node))).toList();
        assertEquals(List.of("scan", "values", "filter", "project", "aggregate", "join", "sort", "union", "setOp", "window", "shared"),
                kinds);
    }

    /** A table with one INTEGER column and no rows; only its schema is used here. */
    private static final class EmptyTable implements TableSource {
        @Override
        public String name() {
            return "empty";
        }

        @Override
        public Schema schema() {
            return ONE_INT;
        }

        @Override
        public long rowCount() {
            return 0;
        }

        @Override
        public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
            throw new UnsupportedOperationException("never scanned");
        }
    }
}
