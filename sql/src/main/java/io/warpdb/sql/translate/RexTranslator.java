package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.sql.calcite.TypeMapping;
import io.warpdb.sql.calcite.WarpRexBuilder;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Translates Calcite row expressions into WarpDB expressions. Dynamic parameters are replaced
 * by the bound values; SEARCH (IN lists, BETWEEN) is expanded.
 */
public final class RexTranslator {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long MICROS_PER_MILLI = 1000L;

    private final RexBuilder rexBuilder;
    private final List<Object> parameters;

    public RexTranslator(RexBuilder rexBuilder, List<Object> parameters) {
        this.rexBuilder = rexBuilder;
        this.parameters = parameters;
    }

    public Expr translate(RexNode node) {
        if (node instanceof RexInputRef ref) {
            return new ColumnRef(ref.getIndex(), TypeMapping.toDataType(ref.getType()));
        }
        if (node instanceof RexLiteral lit) {
            DataType type = TypeMapping.toDataType(lit.getType());
            Object value = LiteralConverter.javaValue(lit);
            // String literals keep their spaces; only comparisons with CHAR values drop them (see charComparison).
            return type.kind().isString() && value != null ? new Literal(value, type.withNullable(false))
                    : LiteralConverter.toLiteral(value, type);
        }
        if (node instanceof RexDynamicParam param) {
            return parameter(param);
        }
        if (node instanceof RexCall call) {
            return call(call);
        }
        throw unsupported(node.toString());
    }

    private Literal parameter(RexDynamicParam param) {
        int i = param.getIndex();
        if (parameters == null || i >= parameters.size()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "no value bound for parameter " + (i + 1));
        }
        return LiteralConverter.toLiteral(parameters.get(i), TypeMapping.toDataType(param.getType()));
    }

    private Expr call(RexCall call) {
        DataType type = TypeMapping.toDataType(call.getType());
        SqlKind kind = call.getKind();
        switch (kind) {
            case SEARCH:
                return translate(RexUtil.expandSearch(rexBuilder, null, call));
            case PLUS:
            case MINUS:
                if (SqlTypeName.DATETIME_TYPES.contains(call.getType().getSqlTypeName())) {
                    return dateArithmetic(call, kind == SqlKind.MINUS);
                }
                return binary(kind == SqlKind.PLUS ? Op.ADD : Op.SUBTRACT, call, type);
            case AND:
                return leftDeep(Op.AND, call, type);
            case OR:
                return orAsIn(leftDeep(Op.OR, call, type), type);
            case LIKE:
                Expr like = new Call(Op.LIKE, args(call), type);
                return ((SqlLikeOperator) call.getOperator()).isNegated() ? Call.of(Op.NOT, type, like) : like;
            case CASE:
                return caseExpr(call, type);
            case EXTRACT:
                return extract(call, type);
            case TRIM:
                return trim(call, type);
            case REINTERPRET:
                return translate(call.getOperands().get(0));
            case CAST:
                return cast(call, type);
            case OTHER_FUNCTION:
                if (call.getOperator() == WarpRexBuilder.RAISE_SCALE) {
                    return cast(call, type);
                }
                return FunctionTranslator.call(call.getOperator().getName(), args(call), type);
            case EQUALS:
            case NOT_EQUALS:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
            case IS_DISTINCT_FROM:
            case IS_NOT_DISTINCT_FROM:
                return new Call(kindOp(kind), charComparison(args(call)), type);
            default:
                Op op = kindOp(call.getKind());
                return op != null ? new Call(op, args(call), type)
                        : FunctionTranslator.call(call.getOperator().getName(), args(call), type);
        }
    }

    /** The operator of a call Calcite knows by its kind, argument for argument; null for named functions. */
    private static Op kindOp(SqlKind kind) {
        switch (kind) {
            case TIMES: return Op.MULTIPLY;
            case DIVIDE: return Op.DIVIDE;
            case MOD: return Op.MOD;
            case MINUS_PREFIX: return Op.NEGATE;
            case EQUALS: return Op.EQ;
            case NOT_EQUALS: return Op.NE;
            case LESS_THAN: return Op.LT;
            case LESS_THAN_OR_EQUAL: return Op.LE;
            case GREATER_THAN: return Op.GT;
            case GREATER_THAN_OR_EQUAL: return Op.GE;
            case IS_DISTINCT_FROM: return Op.IS_DISTINCT_FROM;
            case IS_NOT_DISTINCT_FROM: return Op.IS_NOT_DISTINCT_FROM;
            case NOT: return Op.NOT;
            case IS_NULL: return Op.IS_NULL;
            case IS_NOT_NULL: return Op.IS_NOT_NULL;
            case IS_TRUE: return Op.IS_TRUE;
            case IS_NOT_TRUE: return Op.IS_NOT_TRUE;
            case IS_FALSE: return Op.IS_FALSE;
            case IS_NOT_FALSE: return Op.IS_NOT_FALSE;
            case COALESCE: return Op.COALESCE;
            case CAST: return Op.CAST;
            case FLOOR: return Op.FLOOR;
            case CEIL: return Op.CEIL;
            default: return null;
        }
    }

    private List<Expr> args(RexCall call) {
        List<Expr> out = new ArrayList<>(call.getOperands().size());
        for (RexNode operand : call.getOperands()) {
            out.add(translate(operand));
        }
        return out;
    }

    private Expr binary(Op op, RexCall call, DataType type) {
        return new Call(op, args(call), type);
    }

    /**
     * Trailing spaces do not count when CHAR values are compared. Stored CHAR values carry none;
     * other CHAR operands (literals, which Calcite pads to the column's length, and computed
     * values) are compared without theirs.
     */
    private static List<Expr> charComparison(List<Expr> args) {
        List<Expr> operands = args.stream().map(RexTranslator::uncastChar).toList();
        boolean anyChar = operands.stream().anyMatch(a -> a.type().kind() == TypeKind.CHAR);
        boolean allCharOrLiteral = operands.stream().allMatch(a -> a.type().kind() == TypeKind.CHAR || a instanceof Literal);
        if (!anyChar || !allCharOrLiteral) {
            return args;
        }
        List<Expr> out = new ArrayList<>(operands.size());
        for (Expr a : operands) {
            if (a instanceof Literal lit && lit.value() instanceof String s) {
                out.add(new Literal(s.stripTrailing(), lit.type()));
            } else if (a instanceof ColumnRef) {
                out.add(a);
            } else {
                out.add(Call.of(Op.RTRIM, a.type(), a, Literal.ofString(" ")));
            }
        }
        return out;
    }

    /** A CHAR value that Calcite cast to VARCHAR only to compare it with a string of another length. */
    private static Expr uncastChar(Expr e) {
        return e instanceof Call call && call.op() == Op.CAST && call.type().kind() == TypeKind.VARCHAR
                && call.arg(0).type().kind() == TypeKind.CHAR ? call.arg(0) : e;
    }

    /** Calcite's AND/OR are n-ary; WarpDB's are binary. */
    /**
     * {@code x = v1 OR x = v2 OR ...} over constants as {@code x IN (v1, v2, ...)} (the same
     * three-valued logic), so that x is computed once and each row looks its value up once
     * (TPC-H Q22 compares SUBSTRING(c_phone, 1, 2) with seven codes). Any other OR as it is.
     */
    private static Expr orAsIn(Expr or, DataType type) {
        List<Expr> disjuncts = new ArrayList<>();
        Exprs.flatten(or, Op.OR, disjuncts);
        Expr x = null;
        List<Expr> values = new ArrayList<>();
        for (Expr d : disjuncts) {
            if (!(d instanceof Call eq) || eq.op() != Op.EQ) {
                return or;
            }
            Expr value = eq.arg(1) instanceof Literal ? eq.arg(1) : eq.arg(0) instanceof Literal ? eq.arg(0) : null;
            Expr operand = value == eq.arg(1) ? eq.arg(0) : eq.arg(1);
            if (value == null || ((Literal) value).isNull() || x != null && !x.equals(operand)) {
                return or;
            }
            x = operand;
            values.add(value);
        }
        List<Expr> args = new ArrayList<>();
        args.add(x);
        args.addAll(values);
        return new Call(Op.IN, args, type);
    }

    private Expr leftDeep(Op op, RexCall call, DataType type) {
        List<Expr> args = args(call);
        Expr acc = args.get(0);
        for (int i = 1; i < args.size(); i++) {
            acc = Call.of(op, type, acc, args.get(i));
        }
        return acc;
    }

    /** Calcite puts ELSE last and may omit it; WarpDB's CASE always has one. */
    private Expr caseExpr(RexCall call, DataType type) {
        List<Expr> args = args(call);
        if (args.size() % 2 == 0) {
            args.add(Literal.ofNull(type));
        }
        return new Call(Op.CASE, args, type);
    }

    /**
     * DATE or TIMESTAMP +/- INTERVAL (day-time intervals arrive in milliseconds, year-month ones in
     * months), or DATE +/- INTEGER days.
     */
    private Expr dateArithmetic(RexCall call, boolean subtract) {
        RexNode date = call.getOperands().get(0);
        RexNode interval = call.getOperands().get(1);
        if (!SqlTypeName.DATETIME_TYPES.contains(date.getType().getSqlTypeName())) {
            RexNode t = date;
            date = interval;
            interval = t;
        }
        SqlTypeName dateType = date.getType().getSqlTypeName();
        if (dateType != SqlTypeName.DATE && dateType != SqlTypeName.TIMESTAMP) {
            throw unsupported("arithmetic on " + date.getType());
        }
        DataType type = TypeMapping.toDataType(call.getType());
        if (SqlTypeFamily.INTEGER.contains(interval.getType())) {
            // DATE +/- INTEGER: a number of days.
            Expr days = translate(interval);
            return Call.of(Op.DATE_ADD_DAYS, type, translate(date), subtract ? Call.of(Op.NEGATE, days.type(), days) : days);
        }
        if (!(interval instanceof RexLiteral lit)) {
            throw unsupported("date arithmetic with a non-constant interval");
        }
        BigDecimal amount = lit.getValueAs(BigDecimal.class);
        boolean months = SqlTypeFamily.INTERVAL_YEAR_MONTH.contains(lit.getType());
        long n = subtract ? -amount.longValueExact() : amount.longValueExact();
        if (dateType == SqlTypeName.TIMESTAMP) {
            return Call.of(months ? Op.TIMESTAMP_ADD_MONTHS : Op.TIMESTAMP_ADD_MICROS, type, translate(date),
                    Literal.ofLong(months ? n : Math.multiplyExact(n, MICROS_PER_MILLI), DataType.BIGINT));
        }
        return Call.of(months ? Op.DATE_ADD_MONTHS : Op.DATE_ADD_DAYS, type, translate(date),
                Literal.ofLong(months ? n : n / MILLIS_PER_DAY, DataType.INTEGER));
    }

    /** Numbers and dates do not convert into each other (Calcite's implicit coercion would allow it). */
    private Expr cast(RexCall call, DataType type) {
        Expr arg = translate(call.getOperands().get(0));
        TypeKind from = arg.type().kind();
        if ((from.isDatetime() && type.kind().isNumeric()) || (from.isNumeric() && type.kind().isDatetime())) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, "cannot convert " + arg.type().sqlName() + " to " + type.sqlName());
        }
        return Call.of(Op.CAST, type, arg);
    }

    private Expr extract(RexCall call, DataType type) {
        TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
        Op op = switch (unit) {
            case YEAR -> Op.EXTRACT_YEAR;
            case QUARTER -> Op.EXTRACT_QUARTER;
            case MONTH -> Op.EXTRACT_MONTH;
            case DAY -> Op.EXTRACT_DAY;
            case DOW -> Op.EXTRACT_DOW;
            case DOY -> Op.EXTRACT_DOY;
            case HOUR -> Op.EXTRACT_HOUR;
            case MINUTE -> Op.EXTRACT_MINUTE;
            case SECOND -> Op.EXTRACT_SECOND;
            case MILLISECOND -> Op.EXTRACT_MILLISECOND;
            case MICROSECOND -> Op.EXTRACT_MICROSECOND;
            case EPOCH -> Op.EXTRACT_EPOCH;
            default -> throw unsupported("EXTRACT(" + unit + ")");
        };
        return Call.of(op, type, translate(call.getOperands().get(1)));
    }

    /** TRIM([BOTH|LEADING|TRAILING] [characters] FROM s): Calcite passes the flag, the characters, then s. */
    private Expr trim(RexCall call, DataType type) {
        SqlTrimFunction.Flag flag = ((RexLiteral) call.getOperands().get(0)).getValueAs(SqlTrimFunction.Flag.class);
        Op op = switch (flag) {
            case BOTH -> Op.TRIM;
            case LEADING -> Op.LTRIM;
            case TRAILING -> Op.RTRIM;
        };
        return Call.of(op, type, translate(call.getOperands().get(2)), translate(call.getOperands().get(1)));
    }

    private static WarpException unsupported(String what) {
        return FunctionTranslator.unsupported(what);
    }
}
