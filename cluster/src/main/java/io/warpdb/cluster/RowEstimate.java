package io.warpdb.cluster;

import io.warpdb.core.data.ColumnStatistics;
import io.warpdb.core.data.RangeShare;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Dates;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A rough count of the rows a subtree yields over the whole cluster, and of their bytes, for the
 * choice of how a join's rows meet: scans from what storage keeps of the coordinator's shard
 * (times the shards for a distributed table); filters keep the share of a column's stored range
 * that their range conditions on it keep ({@link RangeShare}: TPC-H q14's month of lineitem is a
 * 84th of it, where a half would make part the smaller side to send), a LIKE a twentieth (NOT LIKE
 * the rest), halved once for any other condition; a tenth for grouped aggregates; an inner join on
 * one key |L| |R| / max(distinct keys), a key's distinct values bounded by its table's rows and its
 * stored range (a filtered part joined with partsupp keeps partsupp's share of the parts, not all of
 * partsupp), other joins the larger side; a row's bytes from its columns' types. It only has to tell
 * a small side from a large one.
 */
final class RowEstimate {
    private static final double FILTER_SELECTIVITY = 0.5;
    /**
     * What a LIKE keeps (NOT LIKE the rest): TPC-H's patterns keep from 0.05 % ('%Customer%Complaints%')
     * to 20 % ('%BRASS') of their column, 5 % of part names for '%green%' (q09), 1 % for 'forest%' (q20);
     * taken as half, q09's green parts joined with lineitem looked too large to move, so partsupp went
     * to every node instead.
     */
    private static final double LIKE_SELECTIVITY = 0.05;
    private static final double GROUPS_PER_ROW = 0.1;
    /** What a string of unknown length is taken to hold; one of declared length n, half of n up to this. */
    private static final int STRING_BYTES = 16;

    /** {@link #of} times the bytes of a row of {@code node}. */
    static double bytes(PlanNode node, Predicate<PlanNode> shardLocal, int nodes) {
        double width = 0;
        for (Field field : node.schema().fields()) {
            width += bytes(field.type());
        }
        return of(node, shardLocal, nodes) * width;
    }

    /** A value's bytes as it travels: fixed widths as held; a string its code and about half its declared length. */
    private static int bytes(DataType type) {
        if (type.isWideDecimal()) {
            return 16;
        }
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INTEGER, DATE -> Integer.BYTES;
            case BIGINT, DECIMAL, DOUBLE, TIMESTAMP, INTERVAL -> Long.BYTES;
            case VARCHAR, CHAR -> Integer.BYTES + (type.precision() > 0 ? Math.min(type.precision() / 2, STRING_BYTES) : STRING_BYTES);
        };
    }

    private RowEstimate() {
    }

    /** {@code shardLocal}: whether a scan reads a distributed table's shard; {@code nodes}: how many shards there are. */
    static double of(PlanNode node, Predicate<PlanNode> shardLocal, int nodes) {
        if (node instanceof ScanNode scan) {
            return scan.table().rowsKept(scan.predicates()) * (shardLocal.test(scan) ? nodes : 1.0);
        }
        if (node instanceof ValuesNode values) {
            return values.rows().size();
        }
        if (node instanceof FilterNode filter) {
            return of(filter.input(), shardLocal, nodes) * share(filter);
        }
        if (node instanceof AggregateNode aggregate) {
            return aggregate.groupKeys().isEmpty() ? 1 : Math.max(1, of(aggregate.input(), shardLocal, nodes) * GROUPS_PER_ROW);
        }
        if (node instanceof SortNode sort && sort.limit() >= 0) {
            return Math.min(sort.limit(), of(sort.input(), shardLocal, nodes));
        }
        if (node instanceof JoinNode join) {
            double left = of(join.left(), shardLocal, nodes);
            if (!join.kind().outputsRight()) {
                return left;
            }
            double right = of(join.right(), shardLocal, nodes);
            if (join.kind() != JoinKind.INNER || join.leftKeys().size() != 1) {
                return Math.max(left, right);
            }
            // every key of the side with fewer distinct keys matches one of the other's: |L| |R| / max(keys)
            double keys = Math.max(distinctKeys(join.left(), join.leftKeys().get(0), shardLocal, nodes),
                    distinctKeys(join.right(), join.rightKeys().get(0), shardLocal, nodes));
            return keys > 0 ? left * right / keys : Math.max(left, right);
        }
        double rows = 0;
        for (PlanNode input : node.inputs()) {
            rows += of(input, shardLocal, nodes);
        }
        return rows;
    }

    /** The share of its input's rows {@code filter} keeps. */
    private static double share(FilterNode filter) {
        List<Expr> conjuncts = new ArrayList<>();
        Exprs.flatten(filter.condition(), Op.AND, conjuncts);
        Map<Integer, RangeShare> ranges = new HashMap<>();
        boolean guessed = false;
        double share = 1;
        for (Expr conjunct : conjuncts) {
            if (isLike(conjunct)) {
                share *= LIKE_SELECTIVITY;
            } else if (conjunct instanceof Call not && not.op() == Op.NOT && isLike(not.args().get(0))) {
                share *= 1 - LIKE_SELECTIVITY;
            } else {
                guessed |= !bound(conjunct, filter.input(), ranges);
            }
        }
        share *= guessed ? FILTER_SELECTIVITY : 1;
        for (RangeShare range : ranges.values()) {
            share *= range.share();
        }
        return share;
    }

    private static boolean isLike(Expr e) {
        return e instanceof Call call && call.op() == Op.LIKE;
    }

    /** Takes a conjunct comparing an integer or date column of known range with a constant into {@code ranges}; false for any other. */
    private static boolean bound(Expr conjunct, PlanNode input, Map<Integer, RangeShare> ranges) {
        if (!(conjunct instanceof Call call) || call.args().size() != 2) {
            return false;
        }
        Expr column = call.args().get(0);
        Expr constant = call.args().get(1);
        boolean mirrored = !(column instanceof ColumnRef);
        if (mirrored) {
            column = call.args().get(1);
            constant = call.args().get(0);
        }
        Long value = constant(constant);
        if (!(column instanceof ColumnRef ref) || value == null || !integral(ref.type())) {
            return false;
        }
        Op op = mirrored ? call.op().mirrored() : call.op();
        if (op != Op.LT && op != Op.LE && op != Op.GT && op != Op.GE) {
            return false;
        }
        RangeShare range = ranges.get(ref.index());
        if (range == null) {
            range = statistics(input, ref.index()).flatMap(RangeShare::of).orElse(null);
            if (range == null) {
                return false;
            }
            ranges.put(ref.index(), range);
        }
        switch (op) {
            case LT -> range.below(value, false);
            case LE -> range.below(value, true);
            case GT -> range.above(value, false);
            default -> range.above(value, true);
        }
        return true;
    }

    /** INTEGER, BIGINT and DATE: storage's statistics hold them as the numbers the constants are (DECIMAL's are unscaled). */
    private static boolean integral(DataType type) {
        return !type.isWideDecimal() && (type.kind() == TypeKind.INTEGER || type.kind() == TypeKind.BIGINT || type.kind() == TypeKind.DATE);
    }

    /** An integer or date constant as storage keeps it (days for a date), a date plus a constant number of days or months included; else null. */
    private static Long constant(Expr e) {
        if (e instanceof Literal literal) {
            return integral(literal.type()) && literal.value() instanceof Long v ? v : null;
        }
        if (!(e instanceof Call call) || call.op() != Op.DATE_ADD_DAYS && call.op() != Op.DATE_ADD_MONTHS) {
            return null;
        }
        Long days = constant(call.args().get(0));
        Long n = constant(call.args().get(1));
        if (days == null || n == null) {
            return null;
        }
        return call.op() == Op.DATE_ADD_DAYS ? days + n : Dates.addMonths(days, n);
    }

    /**
     * The distinct values column {@code column} of {@code node}'s rows holds at most, where it is a
     * scanned table's column: the table's rows (on every shard), or fewer where its stored range is
     * narrower (a part key from 1 to 200,000 in lineitem's 6 M rows); -1 when unknown.
     */
    private static double distinctKeys(PlanNode node, int column, Predicate<PlanNode> shardLocal, int nodes) {
        Optional<ScanColumn> origin = origin(node, column);
        if (origin.isEmpty()) {
            return -1;
        }
        ScanNode scan = origin.get().scan();
        double rows = scan.table().rowCount() * (shardLocal.test(scan) ? nodes : 1.0);
        Optional<ColumnStatistics> stats = scan.table().statistics(origin.get().column());
        if (stats.isPresent() && stats.get().min() instanceof Long min && stats.get().max() instanceof Long max && max >= min) {
            return Math.min(rows, (double) max - min + 1);
        }
        return rows;
    }

    /** A scanned table's column ({@code column}: a position in the table's schema). */
    private record ScanColumn(ScanNode scan, int column) {
    }

    /** The scanned column that column {@code column} of {@code node}'s rows is, passed on unchanged by the nodes above the scan; empty when it is computed. */
    private static Optional<ScanColumn> origin(PlanNode node, int column) {
        if (node instanceof ScanNode scan) {
            return Optional.of(new ScanColumn(scan, scan.columns().get(column)));
        }
        if (node instanceof FilterNode filter) {
            return origin(filter.input(), column);
        }
        if (node instanceof ProjectNode project && project.exprs().get(column) instanceof ColumnRef ref) {
            return origin(project.input(), ref.index());
        }
        if (node instanceof AggregateNode aggregate && column < aggregate.groupKeys().size()) {
            return origin(aggregate.input(), aggregate.groupKeys().get(column));
        }
        if (node instanceof JoinNode join) {
            int leftWidth = join.left().schema().size();
            return column < leftWidth ? origin(join.left(), column)
                    : join.kind().outputsRight() ? origin(join.right(), column - leftWidth) : Optional.empty();
        }
        return Optional.empty();
    }

    /** Storage's statistics of column {@code column} of {@code node}'s rows, where it is a scanned column ({@link #origin}). */
    private static Optional<ColumnStatistics> statistics(PlanNode node, int column) {
        return origin(node, column).flatMap(origin -> origin.scan().table().statistics(origin.column()));
    }
}
