package io.warpdb.sql.calcite;

import io.warpdb.core.data.RangeShare;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The share of a table's rows that range conditions on its INTEGER, BIGINT and DATE columns
 * keep, from the column's minimum and maximum in storage, assuming values spread evenly over
 * that range: {@code o_orderdate >= DATE '1993-10-01' AND o_orderdate < DATE '1993-10-01' +
 * INTERVAL '3' MONTH} keeps 92 of the 2,406 days of orders. Conditions on the same column
 * intersect; columns multiply as independent. Comparisons with anything but a constant (or a
 * date plus a constant interval) are left to other guesses.
 */
final class ColumnRanges {
    private final RelNode rel;
    private final RelMetadataQuery mq;
    /** Per column of {@link #rel}: the share of its known range the conditions keep. */
    private final Map<Integer, RangeShare> bounds = new LinkedHashMap<>();

    ColumnRanges(RelNode rel, RelMetadataQuery mq) {
        this.rel = rel;
        this.mq = mq;
    }

    /** Takes a conjunct that compares a column of known range with a constant; false for any other. */
    boolean add(RexNode conjunct) {
        if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2) {
            return false;
        }
        SqlKind kind = call.getKind();
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        if (!(a instanceof RexInputRef) && b instanceof RexInputRef) {
            RexNode t = a;
            a = b;
            b = t;
            kind = kind.reverse();
        }
        if (!(a instanceof RexInputRef column) || isDate(a) != isDate(b)) {
            return false;
        }
        Double value = constant(b);
        if (value == null || kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL && kind != SqlKind.GREATER_THAN
                && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
            return false;
        }
        RangeShare range = rangeOf(column.getIndex());
        if (range == null) {
            return false;
        }
        switch (kind) {
            case LESS_THAN -> range.below(value, false);
            case LESS_THAN_OR_EQUAL -> range.below(value, true);
            case GREATER_THAN -> range.above(value, false);
            default -> range.above(value, true);
        }
        return true;
    }

    /** The product of the columns' shares; 1 when no conjunct was taken. */
    double selectivity() {
        double selectivity = 1;
        for (RangeShare b : bounds.values()) {
            selectivity *= b.share();
        }
        return selectivity;
    }

    private static boolean isDate(RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.DATE;
    }

    private RangeShare rangeOf(int column) {
        RangeShare known = bounds.get(column);
        if (known != null) {
            return known;
        }
        SqlTypeName type = rel.getRowType().getFieldList().get(column).getType().getSqlTypeName();
        if (type != SqlTypeName.INTEGER && type != SqlTypeName.BIGINT && type != SqlTypeName.DATE) {
            return null; // DECIMAL statistics are unscaled: not comparable with the constants here
        }
        RelColumnOrigin origin = mq.getColumnOrigin(rel, column);
        if (origin == null || origin.isDerived()) {
            return null;
        }
        CalciteTable table = origin.getOriginTable().unwrap(CalciteTable.class);
        if (table == null || origin.getOriginColumnOrdinal() >= table.source().schema().size()) {
            return null;
        }
        RangeShare created = table.source().statistics(origin.getOriginColumnOrdinal()).flatMap(RangeShare::of).orElse(null);
        if (created != null) {
            bounds.put(column, created);
        }
        return created;
    }

    /**
     * An INTEGER, BIGINT or DATE constant as the number storage keeps (days since 1970 for a
     * date), including a date plus or minus a constant interval of days, months or years; else null.
     */
    private static Double constant(RexNode node) {
        if (node instanceof RexLiteral literal) {
            SqlTypeName type = literal.getTypeName();
            if (type == SqlTypeName.DATE) {
                Integer days = literal.getValueAs(Integer.class);
                return days == null ? null : days.doubleValue();
            }
            if (type == SqlTypeName.INTEGER || type == SqlTypeName.BIGINT || type == SqlTypeName.SMALLINT
                    || type == SqlTypeName.TINYINT) {
                Long v = literal.getValueAs(Long.class);
                return v == null ? null : v.doubleValue();
            }
            return null;
        }
        if (node instanceof RexCall call && (call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS)
                && call.getOperands().size() == 2 && call.getOperands().get(0) instanceof RexLiteral date
                && date.getTypeName() == SqlTypeName.DATE && call.getOperands().get(1) instanceof RexLiteral interval) {
            Integer days = date.getValueAs(Integer.class);
            BigDecimal amount = interval.getValueAs(BigDecimal.class);
            if (days == null || amount == null || interval.getType().getIntervalQualifier() == null) {
                return null;
            }
            int sign = call.getKind() == SqlKind.PLUS ? 1 : -1;
            LocalDate start = LocalDate.ofEpochDay(days);
            TimeUnit unit = interval.getType().getIntervalQualifier().getStartUnit();
            LocalDate end = switch (unit) {
                // Year-month intervals are held in months, day-time ones in milliseconds.
                case YEAR, MONTH -> start.plusMonths(sign * amount.longValue());
                case DAY, HOUR, MINUTE, SECOND -> start.plusDays(sign * amount.longValue() / 86_400_000L);
                default -> null;
            };
            return end == null ? null : (double) end.toEpochDay();
        }
        return null;
    }
}
