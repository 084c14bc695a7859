package io.warpdb.sql;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.ColumnStatistics;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.data.encoded.EncodedSegment;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The statistics a query was planned from, by table: its row count and its columns' statistics as
 * the planner reads them. A cluster's coordinator sends the ones of the tables its plan scans with
 * each fragment, and every shard plans the query's text from them instead of from its own shard,
 * whose row counts and column ranges differ a little from node to node: enough to flip a close
 * join order (TPC-H q08 on four nodes at SF 100), after which a shard's plan lacks the fragment
 * the coordinator asked for. Planned from the same numbers, every node's plan is the coordinator's.
 * Plans scan the pinned tables ({@link #pin}); runs read the snapshot's tables by name
 * ({@link QueryPlans#run}), as every plan does.
 */
public record PinnedStatistics(Map<String, Table> tables) {
    public PinnedStatistics {
        tables = new TreeMap<>(tables);
    }

    /** A table's row count and its columns' statistics, in schema order. */
    public record Table(long rows, List<Column> columns) {
        public Table {
            columns = List.copyOf(columns);
        }
    }

    /**
     * A column's statistics as the planner tells them apart ({@code kind}): none kept; every value
     * NULL; integer-valued (INTEGER, BIGINT, DATE, DECIMAL unscaled) with its minimum and maximum;
     * BOOLEAN (1 for true); any other type, whose range it does not read.
     */
    public record Column(String kind, long nullCount, long min, long max) {
        static final String NONE = "none";
        static final String ALL_NULL = "null";
        static final String INTEGRAL = "long";
        static final String BOOLEAN = "boolean";
        static final String OTHER = "other";

        static Column of(Optional<ColumnStatistics> statistics) {
            if (statistics.isEmpty()) {
                return new Column(NONE, 0, 0, 0);
            }
            ColumnStatistics s = statistics.get();
            if (s.min() == null) {
                return new Column(ALL_NULL, s.nullCount(), 0, 0);
            }
            if (s.min() instanceof Long min && s.max() instanceof Long max) {
                return new Column(INTEGRAL, s.nullCount(), min, max);
            }
            if (s.min() instanceof Boolean min && s.max() instanceof Boolean max) {
                return new Column(BOOLEAN, s.nullCount(), min ? 1 : 0, max ? 1 : 0);
            }
            return new Column(OTHER, s.nullCount(), 0, 0);
        }

        Optional<ColumnStatistics> statistics() {
            return switch (kind) {
                case NONE -> Optional.empty();
                case ALL_NULL -> Optional.of(new ColumnStatistics(nullCount, null, null));
                case INTEGRAL -> Optional.of(new ColumnStatistics(nullCount, min, max));
                case BOOLEAN -> Optional.of(new ColumnStatistics(nullCount, min == 1, max == 1));
                // a range the planner does not read: it only tells such a column from one without statistics
                default -> Optional.of(new ColumnStatistics(nullCount, "", ""));
            };
        }
    }

    /** The statistics of every table {@code plan} scans, as its sources (a snapshot's tables) keep them now. */
    public static PinnedStatistics of(PlanNode plan) {
        Map<String, Table> tables = new TreeMap<>();
        collect(plan, tables);
        return new PinnedStatistics(tables);
    }

    private static void collect(PlanNode node, Map<String, Table> tables) {
        if (node instanceof ScanNode scan) {
            TableSource source = scan.table();
            tables.computeIfAbsent(source.name(), name -> {
                List<Column> columns = new ArrayList<>();
                for (int c = 0; c < source.schema().size(); c++) {
                    columns.add(Column.of(source.statistics(c)));
                }
                return new Table(source.rowCount(), columns);
            });
        }
        node.inputs().forEach(input -> collect(input, tables));
    }

    /** {@code source} as the planner sees it: with the pinned statistics where this holds its table's. */
    public TableSource pin(TableSource source) {
        Table pinned = tables.get(source.name());
        return pinned == null || pinned.columns().size() != source.schema().size() ? source : new PinnedTable(source, pinned);
    }

    /** A table whose row count and column statistics are the pinned ones; everything else is the table's own. */
    private record PinnedTable(TableSource table, Table pinned) implements TableSource {
        @Override
        public String name() {
            return table.name();
        }

        @Override
        public Schema schema() {
            return table.schema();
        }

        @Override
        public long rowCount() {
            return pinned.rows();
        }

        @Override
        public Optional<ColumnStatistics> statistics(int column) {
            return column < pinned.columns().size() ? pinned.columns().get(column).statistics() : Optional.empty();
        }

        @Override
        public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
            return table.scan(columns, allocator);
        }

        @Override
        public BatchStream scan(List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
            return table.scan(columns, predicates, allocator);
        }

        @Override
        public List<BatchStream> scanParts(List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
            return table.scanParts(columns, predicates, allocator);
        }

        @Override
        public Optional<List<EncodedSegment>> encodedSegments(List<Integer> columns, List<ColumnPredicate> predicates) {
            return table.encodedSegments(columns, predicates);
        }

        @Override
        public long rowsKept(List<ColumnPredicate> predicates) {
            return table.rowsKept(predicates);
        }

        @Override
        public Object dataVersion() {
            return table.dataVersion();
        }
    }
}
