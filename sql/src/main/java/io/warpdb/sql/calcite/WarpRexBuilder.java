package io.warpdb.sql.calcite;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.Sarg;

/**
 * The planner's RexBuilder. It builds four kinds of calls in an equivalent form that Calcite's
 * simplifier (run by every RelBuilder) and metadata handle correctly:
 * <ul>
 *   <li>A comparison ({@code =, <>, <, <=, >, >=}) or a product or quotient ({@code * / %}) with a NULL
 *       literal operand is the NULL literal it always evaluates to. Calcite's collation metadata
 *       reads the other operand of {@code x / NULL * NULL} as a literal (AssertionError "not a
 *       literal"), and the simplifier checks a comparison for NULL operands before it
 *       simplifies them, so {@code CASE WHEN FALSE THEN 'a' END >= 'x'} comes out as
 *       {@code NULL >= 'x'}; inside an AND that becomes a pulled-up predicate, and
 *       {@code RelOptPredicateList} throws "Comparison with NULL in pulledUpPredicates".</li>
 *   <li>A SEARCH (a range or IN test) of a BOOLEAN operand is written with IS / NOT / OR. The
 *       simplifier simplifies a SEARCH's operand in the mode of the whole condition, so in a WHERE
 *       {@code (NULL AND b) BETWEEN FALSE AND TRUE} became {@code FALSE BETWEEN FALSE AND TRUE},
 *       TRUE for every row, where the operand is NULL and the condition NULL.</li>
 *   <li>{@code a IS NOT FALSE} is {@code COALESCE(a, TRUE)}. The simplifier simplifies {@code a} with
 *       NULL read as TRUE there, and in that mode it drops the IS NOT NULL of a conjunction it
 *       turns into a range: {@code (c IS NOT NULL AND c = 5) IS NOT FALSE} became
 *       {@code (c = 5) IS NOT FALSE}, TRUE for a NULL c.</li>
 *   <li>A CAST that raises the scale of an exact number ({@code CAST(d AS DECIMAL(8, 1))} of a
 *       DECIMAL(6, 0) d, or of an INTEGER) is a call of {@link #RAISE_SCALE}. The simplifier drops
 *       such a "lossless" cast under another cast, so {@code CAST(CAST(d AS DECIMAL(8, 1)) AS
 *       VARCHAR)} was {@code '5'} instead of {@code '5.0'} (and so was a COALESCE whose other
 *       operands have a larger scale); the text of a decimal shows its scale.</li>
 * </ul>
 */
public final class WarpRexBuilder extends RexBuilder {
    /** CAST to a DECIMAL of a larger scale, which Calcite's simplifier does not see as a cast (typed by its call). */
    public static final SqlFunction RAISE_SCALE = new SqlFunction("RAISE_SCALE", SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, null,
            OperandTypes.EXACT_NUMERIC, SqlFunctionCategory.SYSTEM);

    /** Folded when an operand is a NULL literal; not + and -, whose convertlet expects the call it asked for. */
    private static final Set<SqlKind> STRICT_BINARY = EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.TIMES, SqlKind.DIVIDE,
            SqlKind.MOD);

    WarpRexBuilder(RelDataTypeFactory typeFactory) {
        super(typeFactory);
    }

    @Override
    public RexNode makeAbstractCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean safe) {
        return !safe && raisesScale(type, exp) ? super.makeCall(pos, type, RAISE_SCALE, List.of(exp))
                : super.makeAbstractCast(pos, type, exp, safe);
    }

    @Override
    public RexNode makeAbstractCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean safe, RexLiteral format) {
        return !safe && (format == null || format.isNull()) && raisesScale(type, exp) ? super.makeCall(pos, type, RAISE_SCALE, List.of(exp))
                : super.makeAbstractCast(pos, type, exp, safe, format);
    }

    private static boolean raisesScale(RelDataType type, RexNode exp) {
        RelDataType from = exp.getType();
        return type.getSqlTypeName() == SqlTypeName.DECIMAL && !(exp instanceof RexLiteral)
                && SqlTypeUtil.isExactNumeric(from) && type.getScale() > Math.max(from.getScale(), 0);
    }

    @Override
    public RexNode makeCall(SqlParserPos pos, SqlOperator op, List<? extends RexNode> exprs) {
        RexNode rewritten = rewritten(op, exprs);
        if (rewritten != null) {
            return rewritten;
        }
        RexNode call = super.makeCall(pos, op, exprs);
        return nullForEveryRow(op, exprs) ? makeNullLiteral(call.getType()) : call;
    }

    @Override
    public RexNode makeCall(SqlParserPos pos, RelDataType returnType, SqlOperator op, List<RexNode> exprs) {
        RexNode rewritten = rewritten(op, exprs);
        if (rewritten != null) {
            return rewritten;
        }
        return nullForEveryRow(op, exprs) ? makeNullLiteral(returnType) : super.makeCall(pos, returnType, op, exprs);
    }

    /** The IS NOT FALSE and BOOLEAN SEARCH forms of the class comment, or null for any other call. */
    private RexNode rewritten(SqlOperator op, List<? extends RexNode> exprs) {
        if (op.getKind() == SqlKind.IS_NOT_FALSE) {
            return isNotFalse(exprs.get(0));
        }
        if (isBooleanSearch(op, exprs)) {
            return booleanSearch(exprs.get(0), ((RexLiteral) exprs.get(1)).getValueAs(Sarg.class));
        }
        return null;
    }

    /** {@code a IS NOT FALSE} as {@code COALESCE(a, TRUE)}, whose operand the simplifier reads with NULL as NULL. */
    private RexNode isNotFalse(RexNode a) {
        return a.getType().isNullable() ? super.makeCall(SqlParserPos.ZERO, SqlStdOperatorTable.COALESCE, List.of(a, makeLiteral(true)))
                : a;
    }

    /** A comparison or arithmetic with a NULL literal operand: NULL for every row, and never an error. */
    private static boolean nullForEveryRow(SqlOperator op, List<? extends RexNode> exprs) {
        return STRICT_BINARY.contains(op.getKind()) && exprs.size() == 2
                && exprs.stream().anyMatch(e -> e instanceof RexLiteral literal && literal.isNull());
    }

    private static boolean isBooleanSearch(SqlOperator op, List<? extends RexNode> exprs) {
        return op.getKind() == SqlKind.SEARCH && exprs.get(0).getType().getSqlTypeName() == SqlTypeName.BOOLEAN
                && exprs.get(1) instanceof RexLiteral;
    }

    /** {@code SEARCH(x, sarg)} for a BOOLEAN x: which of FALSE and TRUE the sarg holds, and what a NULL x gives. */
    private RexNode booleanSearch(RexNode x, Sarg<?> sarg) {
        boolean holdsFalse = contains(sarg, Boolean.FALSE);
        boolean holdsTrue = contains(sarg, Boolean.TRUE);
        RexUnknownAs nullAs = sarg.nullAs;
        if (holdsFalse && holdsTrue) {
            return switch (nullAs) {
                case TRUE -> makeLiteral(true);
                case FALSE -> makeCall(SqlStdOperatorTable.IS_NOT_NULL, x);
                // NULL for a NULL x, TRUE otherwise (as Calcite writes x = x).
                case UNKNOWN -> makeCall(SqlStdOperatorTable.OR, makeNullLiteral(x.getType()),
                        makeCall(SqlStdOperatorTable.IS_NOT_NULL, x));
            };
        }
        if (holdsTrue) {
            return switch (nullAs) {
                case TRUE -> makeCall(SqlStdOperatorTable.IS_NOT_FALSE, x);
                case FALSE -> makeCall(SqlStdOperatorTable.IS_TRUE, x);
                case UNKNOWN -> x;
            };
        }
        if (holdsFalse) {
            return switch (nullAs) {
                case TRUE -> makeCall(SqlStdOperatorTable.IS_NOT_TRUE, x);
                case FALSE -> makeCall(SqlStdOperatorTable.IS_FALSE, x);
                case UNKNOWN -> makeCall(SqlStdOperatorTable.NOT, x);
            };
        }
        return switch (nullAs) {
            case TRUE -> makeCall(SqlStdOperatorTable.IS_NULL, x);
            case FALSE -> makeLiteral(false);
            case UNKNOWN -> makeCall(SqlStdOperatorTable.AND, makeNullLiteral(x.getType()),
                    makeCall(SqlStdOperatorTable.IS_NULL, x));
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean contains(Sarg<?> sarg, Boolean value) {
        return ((com.google.common.collect.RangeSet) sarg.rangeSet).contains(value);
    }
}
