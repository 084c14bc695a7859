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
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.TypeKind;
import java.time.LocalDate;
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
 * 84th of it, where a half would make part the smaller side to send), halved once for any other
 * condition; a tenth for grouped aggregates, the larger side for joins; a row's bytes from its
 * columns' types. It only has to tell a small side from a large one.
 */
final class RowEstimate {
    private static final double FILTER_SELECTIVITY = 0.5;
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
            return join.kind().outputsRight() ? Math.max(left, of(join.right(), shardLocal, nodes)) : left;
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
        for (Expr conjunct : conjuncts) {
            guessed |= !bound(conjunct, filter.input(), ranges);
        }
        double share = guessed ? FILTER_SELECTIVITY : 1;
        for (RangeShare range : ranges.values()) {
            share *= range.share();
        }
        return share;
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
        Op op = mirrored ? switch (call.op()) {
            case LT -> Op.GT;
            case LE -> Op.GE;
            case GT -> Op.LT;
            case GE -> Op.LE;
            default -> call.op();
        } : call.op();
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
        return call.op() == Op.DATE_ADD_DAYS ? days + n : LocalDate.ofEpochDay(days).plusMonths(n).toEpochDay();
    }

    /** Storage's statistics of column {@code column} of {@code node}'s rows, where it is a scanned column passed through filters and projections. */
    private static Optional<ColumnStatistics> statistics(PlanNode node, int column) {
        if (node instanceof ScanNode scan) {
            return scan.table().statistics(scan.columns().get(column));
        }
        if (node instanceof FilterNode filter) {
            return statistics(filter.input(), column);
        }
        if (node instanceof ProjectNode project && project.exprs().get(column) instanceof ColumnRef ref) {
            return statistics(project.input(), ref.index());
        }
        return Optional.empty();
    }
}
