package io.warpdb.exec.cpu.expr;

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
import io.warpdb.core.value.Timestamps;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns expression trees into {@link Evaluator}s. Besides picking the evaluator of each
 * operator it decides:
 * <ul>
 * <li>A call whose only non-constant argument is a string, and which maps each string on its
 * own, runs once per dictionary entry instead of once per row: a non-string result (comparison
 * with a constant, LIKE, IN, CHAR_LENGTH, CAST to a number) is looked up by code
 * ({@link DictionaryLookupEvaluator}); a string result (UPPER, SUBSTRING, CONCAT with a constant,
 * CAST between strings) keeps the codes over a mapped dictionary ({@link DictionaryMapEvaluator}).
 * <li>Where an argument's type differs from what the operator computes on (a CASE branch of
 * another type, a string compared with a date) a cast is inserted.
 * <li>A call that reads no column is computed once ({@link ConstantEvaluator}).
 * <li>A call repeated among expressions compiled together is computed once per input
 * ({@link #compileAll}).
 * </ul>
 */
public final class ExprCompiler {
    /** Operators that map each string value independently and give NULL for NULL. */
    private static final Set<Op> PER_STRING_OPS = EnumSet.of(Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE, Op.LIKE, Op.IN,
            Op.CHAR_LENGTH, Op.UPPER, Op.LOWER, Op.TRIM, Op.LTRIM, Op.RTRIM, Op.SUBSTRING, Op.CONCAT, Op.REPLACE, Op.STRPOS,
            Op.LEFT, Op.RIGHT, Op.LPAD, Op.RPAD, Op.SPLIT_PART, Op.STARTS_WITH, Op.REGEXP_MATCHES, Op.REGEXP_REPLACE);

    /** The calls that occur more than once in the expressions compiled together; empty for a single one. */
    private final Set<Expr> repeated;
    /** The evaluator built for each repeated call, once. */
    private final Map<Expr, Evaluator> shared = new HashMap<>();

    private ExprCompiler(Set<Expr> repeated) {
        this.repeated = repeated;
    }

    public static Evaluator compile(Expr expr) {
        return new ExprCompiler(Set.of()).build(expr);
    }

    /** Compiles {@code expr} and converts its values to {@code type} where the physical form differs. */
    public static Evaluator compile(Expr expr, DataType type) {
        return new ExprCompiler(Set.of()).build(expr, type);
    }

    /**
     * Compiles expressions evaluated over the same inputs (a projection's columns): a call that
     * occurs more than once among them, such as {@code price * (1 - discount)} in TPC-H Q1's two
     * sums, is computed once per input ({@link SharedEvaluator}). Expression i is converted to
     * {@code types.get(i)} as {@link #compile(Expr, DataType)} does.
     */
    public static List<Evaluator> compileAll(List<Expr> exprs, List<DataType> types) {
        Map<Expr, Integer> occurrences = new HashMap<>();
        for (Expr e : exprs) {
            countCalls(e, occurrences);
        }
        Set<Expr> repeated = new HashSet<>();
        occurrences.forEach((call, n) -> {
            if (n > 1) {
                repeated.add(call);
            }
        });
        ExprCompiler compiler = new ExprCompiler(repeated);
        List<Evaluator> evaluators = new ArrayList<>(exprs.size());
        for (int i = 0; i < exprs.size(); i++) {
            evaluators.add(compiler.build(exprs.get(i), types.get(i)));
        }
        return evaluators;
    }

    private static void countCalls(Expr expr, Map<Expr, Integer> occurrences) {
        if (expr instanceof Call call) {
            occurrences.merge(call, 1, Integer::sum);
            for (Expr arg : call.args()) {
                countCalls(arg, occurrences);
            }
        }
    }

    private Evaluator build(Expr expr) {
        if (!repeated.contains(expr)) {
            return buildUnshared(expr);
        }
        Evaluator evaluator = shared.get(expr);
        if (evaluator == null) {
            evaluator = new SharedEvaluator(buildUnshared(expr));
            shared.put(expr, evaluator);
        }
        return evaluator;
    }

    private Evaluator buildUnshared(Expr expr) {
        if (expr instanceof ColumnRef ref) {
            return new ColumnRefEvaluator(ref.index(), ref.type());
        }
        if (expr instanceof Literal literal) {
            return new LiteralEvaluator(literal);
        }
        Call call = (Call) expr;
        if (readsNoColumn(call)) {
            return new ConstantEvaluator(compileCall(call));
        }
        Expr soleString = soleStringArgument(call);
        return soleString != null ? perDictionaryEntry(call, soleString) : compileCall(call);
    }

    /** Whether the expression is the same for every row (every operator is deterministic). */
    private static boolean readsNoColumn(Expr expr) {
        boolean[] reads = new boolean[1];
        Exprs.forEachColumn(expr, column -> reads[0] = true);
        return !reads[0];
    }

    private Evaluator build(Expr expr, DataType type) {
        return coerce(build(expr), type);
    }

    /**
     * The call's only non-constant argument if it is a string and the operator maps strings one
     * by one; else null. Through a chain of such calls it is the innermost one's argument: the
     * chain then runs whole once per entry of that string's dictionary, with no dictionary built
     * for the links between (TPC-H Q22's {@code SUBSTRING(c_phone, 1, 2) IN (...)} tests the
     * phones' prefixes instead of mapping 150 K phones to their substrings first).
     */
    private static Expr soleStringArgument(Call call) {
        Expr input = PER_STRING_OPS.contains(call.op()) ? Exprs.soleStringArgument(call) : null;
        Expr inner = input instanceof Call link ? soleStringArgument(link) : null;
        return inner != null ? inner : input;
    }

    private Evaluator perDictionaryEntry(Call call, Expr input) {
        Call overEntries = (Call) withEntry(call, input, new ColumnRef(0, input.type()));
        Evaluator perEntry = compileCall(overEntries);
        Evaluator strings = build(input);
        return call.type().kind().isString() ? new DictionaryMapEvaluator(strings, perEntry, call.type(), false)
                : new DictionaryLookupEvaluator(strings, perEntry);
    }

    /** {@code expr} with {@code input} (found by identity) replaced by {@code entry}. */
    private static Expr withEntry(Expr expr, Expr input, ColumnRef entry) {
        if (expr == input) {
            return entry;
        }
        if (expr instanceof Call call) {
            return new Call(call.op(), call.args().stream().map(a -> withEntry(a, input, entry)).toList(), call.type());
        }
        return expr;
    }

    private Evaluator compileCall(Call call) {
        List<Expr> args = call.args();
        DataType type = call.type();
        Op op = call.op();
        return switch (op) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD -> arithmetic(call);
            case NEGATE, ABS, SIGN, FLOOR, CEIL, ROUND, TRUNC -> mathFunction(call);
            case SQRT, EXP, LN, LOG10, POWER -> new DoubleFunctionEvaluator(op, build(args.get(0), DataType.DOUBLE),
                    args.size() > 1 ? build(args.get(1), DataType.DOUBLE) : null, type);
            case EQ, NE, LT, LE, GT, GE, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM ->
                    comparison(op, build(args.get(0)), build(args.get(1)), type);
            case AND, OR -> new LogicalEvaluator(op == Op.AND, build(args.get(0)), build(args.get(1)), type);
            case NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE ->
                    new TruthTableEvaluator(op, build(args.get(0)), type);
            case CASE -> caseWhen(args, type);
            case COALESCE -> new CoalesceEvaluator(args.stream().map(a -> build(a, type)).toList(), type);
            case CAST -> cast(build(args.get(0)), type);
            case IN -> in(args, type);
            case LIKE -> new LikeEvaluator(text(args.get(0)), text(args.get(1)),
                    args.size() > 2 ? text(args.get(2)) : null, type);
            case CONCAT -> new StringFunctionEvaluator(List.of(text(args.get(0)), text(args.get(1))),
                    StringFunctions.CONCAT, type);
            case SUBSTRING -> substring(args, type);
            case UPPER -> new StringFunctionEvaluator(List.of(text(args.get(0))), StringFunctions.UPPER, type);
            case LOWER -> new StringFunctionEvaluator(List.of(text(args.get(0))), StringFunctions.LOWER, type);
            case TRIM -> trim(args, StringFunctions.TRIM, type);
            case LTRIM -> trim(args, StringFunctions.LTRIM, type);
            case RTRIM -> trim(args, StringFunctions.RTRIM, type);
            case CHAR_LENGTH -> new CharLengthEvaluator(text(args.get(0)), type);
            case REPLACE -> strings(args, StringFunctions.REPLACE, type);
            case LEFT -> strings(args, StringFunctions.LEFT, type);
            case RIGHT -> strings(args, StringFunctions.RIGHT, type);
            case LPAD -> strings(args, StringFunctions.LPAD, type);
            case RPAD -> strings(args, StringFunctions.RPAD, type);
            case SPLIT_PART -> strings(args, StringFunctions.SPLIT_PART, type);
            case REGEXP_REPLACE -> strings(args, RegexFunctions.replace(), type);
            case STRPOS -> new StringMeasureEvaluator(stringArgs(args), StringFunctions.STRPOS, type);
            case STARTS_WITH -> new StringMeasureEvaluator(stringArgs(args), StringFunctions.STARTS_WITH, type);
            case REGEXP_MATCHES -> new StringMeasureEvaluator(stringArgs(args), RegexFunctions.matches(), type);
            case EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY, EXTRACT_DOW, EXTRACT_DOY ->
                    new DateFunctionEvaluator(op, build(args.get(0), DataType.DATE), null, null, type);
            case DATE_ADD_DAYS, DATE_ADD_MONTHS ->
                    new DateFunctionEvaluator(op, build(args.get(0), DataType.DATE),
                            build(args.get(1), DataType.BIGINT), null, type);
            case DATE_DIFF_DAYS -> new DateFunctionEvaluator(op, build(args.get(0), DataType.DATE),
                    build(args.get(1), DataType.DATE), null, type);
            case EXTRACT_HOUR, EXTRACT_MINUTE, EXTRACT_SECOND, EXTRACT_MILLISECOND, EXTRACT_MICROSECOND, EXTRACT_EPOCH ->
                    new DateFunctionEvaluator(op, build(args.get(0), DataType.TIMESTAMP), null, null, type);
            case DATE_TRUNC -> new DateFunctionEvaluator(op, build(args.get(1), DataType.TIMESTAMP), null,
                    Timestamps.Unit.of((String) ((Literal) args.get(0)).value()), type);
            case TIMESTAMP_ADD_MICROS, TIMESTAMP_ADD_MONTHS -> new DateFunctionEvaluator(op,
                    build(args.get(0), DataType.TIMESTAMP), build(args.get(1), DataType.BIGINT), null, type);
        };
    }

    /** A string function whose string arguments are read as text and numeric ones (lengths, indexes) as BIGINT. */
    private Evaluator strings(List<Expr> args, StringFunctionEvaluator.RowFunction function, DataType type) {
        return new StringFunctionEvaluator(stringArgs(args), function, type);
    }

    private List<Evaluator> stringArgs(List<Expr> args) {
        return args.stream().map(a -> a.type().kind().isNumeric() ? build(a, DataType.BIGINT) : text(a)).toList();
    }

    private Evaluator trim(List<Expr> args, StringFunctionEvaluator.RowFunction function, DataType type) {
        return new StringFunctionEvaluator(List.of(text(args.get(0)), text(args.get(1))), function, type);
    }

    private Evaluator arithmetic(Call call) {
        if (call.type().kind() == TypeKind.INTERVAL && call.op() == Op.SUBTRACT) {
            // TIMESTAMP - TIMESTAMP: the microseconds between them (a DATE operand as its midnight).
            return ArithmeticEvaluator.of(Op.SUBTRACT, build(call.arg(0), DataType.TIMESTAMP), build(call.arg(1), DataType.TIMESTAMP),
                    call.type());
        }
        Evaluator left = build(call.arg(0));
        Evaluator right = build(call.arg(1));
        requireNumeric(call, left, right);
        DataType type = call.type();
        boolean inDouble = type.kind() == TypeKind.DOUBLE || left.type().kind() == TypeKind.DOUBLE
                || right.type().kind() == TypeKind.DOUBLE;
        if (inDouble && type.kind() != TypeKind.DOUBLE) {
            return cast(ArithmeticEvaluator.of(call.op(), left, right, DataType.DOUBLE), type);
        }
        if (!type.kind().isNumeric()) {
            throw mismatch(call);
        }
        if (!inDouble && WideDecimalArithmeticEvaluator.applies(type, left, right)) {
            return new WideDecimalArithmeticEvaluator(call.op(), left, right, type);
        }
        return ArithmeticEvaluator.of(call.op(), left, right, type);
    }

    private Evaluator mathFunction(Call call) {
        Evaluator arg = build(call.arg(0));
        requireNumeric(call, arg);
        boolean rounds = call.op() == Op.ROUND || call.op() == Op.TRUNC;
        int digits = rounds && call.args().size() > 1 ? constantInt(call.arg(1), call.op() + " digits") : 0;
        DataType type = call.type();
        if (WideDecimalArithmeticEvaluator.applies(type, arg)) {
            return new WideDecimalArithmeticEvaluator(call.op(), arg, null, type);
        }
        boolean argIsDouble = arg.type().kind() == TypeKind.DOUBLE;
        if (argIsDouble != (type.kind() == TypeKind.DOUBLE)) {
            // Compute in the argument's own form, then convert (e.g. FLOOR of a DOUBLE typed as BIGINT).
            return cast(new MathFunctionEvaluator(call.op(), arg, digits, arg.type()), type);
        }
        return new MathFunctionEvaluator(call.op(), arg, digits, type);
    }

    private Evaluator comparison(Op op, Evaluator left, Evaluator right, DataType type) {
        boolean leftIsString = left.type().kind().isString();
        boolean rightIsString = right.type().kind().isString();
        if (leftIsString && !rightIsString) {
            left = cast(left, right.type());
        } else if (rightIsString && !leftIsString) {
            right = cast(right, left.type());
        } else if (left.type().kind() == TypeKind.DATE && right.type().kind() == TypeKind.TIMESTAMP) {
            left = cast(left, right.type()); // a DATE compares as its midnight
        } else if (right.type().kind() == TypeKind.DATE && left.type().kind() == TypeKind.TIMESTAMP) {
            right = cast(right, left.type());
        }
        return new ComparisonEvaluator(op, left, right, type);
    }

    /** CASE(when1, then1, ..., else). */
    private Evaluator caseWhen(List<Expr> args, DataType type) {
        List<Evaluator> whens = new ArrayList<>();
        List<Evaluator> thens = new ArrayList<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            whens.add(build(args.get(i)));
            thens.add(build(args.get(i + 1), type));
        }
        return new CaseEvaluator(whens, thens, build(args.get(args.size() - 1), type), type);
    }

    /** IN(x, v1, ...); values that are not constants turn it into x = v1 OR x = v2 ... */
    private Evaluator in(List<Expr> args, DataType type) {
        Expr x = args.get(0);
        List<Expr> values = args.subList(1, args.size());
        if (values.stream().allMatch(v -> v instanceof Literal) && !x.type().isWideDecimal()
                && values.stream().noneMatch(v -> v.type().isWideDecimal())) {
            List<Literal> literals = values.stream().map(v -> (Literal) v).toList();
            int prefixLength = leadingSubstringLength(x);
            if (prefixLength > 0 && literals.stream().allMatch(v -> v.isNull() || v.type().kind().isString())) {
                return new PrefixInEvaluator(text(((Call) x).arg(0)), prefixLength, literals, type);
            }
            return new InEvaluator(build(x), literals, type);
        }
        Expr anyEqual = null;
        for (Expr v : values) {
            Expr equal = Call.of(Op.EQ, type, x, v);
            anyEqual = anyEqual == null ? equal : Call.of(Op.OR, type, anyEqual, equal);
        }
        return build(anyEqual);
    }

    /** n when {@code e} is {@code SUBSTRING(s, 1, n)} with a constant n > 0 and a string s; else 0. */
    private static int leadingSubstringLength(Expr e) {
        if (e instanceof Call call && call.op() == Op.SUBSTRING && call.args().size() == 3 && call.arg(0).type().kind().isString()
                && call.arg(1) instanceof Literal start && Long.valueOf(1).equals(start.value())
                && call.arg(2) instanceof Literal length && length.value() instanceof Long n && n > 0 && n <= Integer.MAX_VALUE) {
            return (int) (long) n;
        }
        return 0;
    }

    private Evaluator substring(List<Expr> args, DataType type) {
        List<Evaluator> compiled = new ArrayList<>();
        compiled.add(text(args.get(0)));
        for (Expr bound : args.subList(1, args.size())) {
            compiled.add(build(bound, DataType.BIGINT));
        }
        return new StringFunctionEvaluator(compiled, StringFunctions.substring(args.size() > 2), type);
    }

    /** A string argument; other types are cast to VARCHAR. */
    private Evaluator text(Expr expr) {
        return build(expr, DataType.VARCHAR);
    }

    /** {@code arg} converted to {@code to}; casts to and from strings go through the dictionary. */
    static Evaluator cast(Evaluator arg, DataType to) {
        DataType from = arg.type();
        Evaluator entry = new ColumnRefEvaluator(0, from);
        if (from.kind().isString() && to.kind().isString()) {
            if (to.kind() == TypeKind.VARCHAR && to.precision() == 0) {
                return arg; // any string is a valid unbounded VARCHAR
            }
            return new DictionaryMapEvaluator(arg,
                    new StringFunctionEvaluator(List.of(entry), StringFunctions.castString(to), to), to, true);
        }
        if (WideDecimalCastEvaluator.applies(from, to)) {
            return new WideDecimalCastEvaluator(arg, to);
        }
        if (from.kind().isString()) {
            return new DictionaryLookupEvaluator(arg, new CastEvaluator(entry, to));
        }
        if (to.kind().isString()) {
            return new StringFunctionEvaluator(List.of(arg), StringFunctions.format(from, to), to);
        }
        return new CastEvaluator(arg, to);
    }

    /**
     * {@code e} unchanged when its values already have {@code type}'s physical form and range,
     * else cast (to a narrower integer or to REAL too, which checks the range or rounds).
     */
    private static Evaluator coerce(Evaluator e, DataType type) {
        TypeKind from = e.type().kind();
        TypeKind to = type.kind();
        boolean sameForm = from.isString() && to.isString()
                || from == to && (to != TypeKind.DECIMAL || e.type().scale() == type.scale()
                        && e.type().isWideDecimal() == type.isWideDecimal()) && !narrows(e.type(), type)
                || from == TypeKind.INTEGER && to == TypeKind.BIGINT;
        return sameForm ? e : cast(e, type);
    }

    /** Whether {@code to} holds fewer values than {@code from} of the same kind (INTEGER to SMALLINT, DOUBLE to REAL). */
    private static boolean narrows(DataType from, DataType to) {
        return to.isNarrowInteger() && (!from.isNarrowInteger() || from.precision() > to.precision())
                || to.isReal() && !from.isReal();
    }

    private static int constantInt(Expr e, String what) {
        if (e instanceof Literal literal && literal.value() instanceof Long value && (int) (long) value == value) {
            return (int) (long) value;
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, what + " must be an integer constant, not " + e);
    }

    private static void requireNumeric(Call call, Evaluator... args) {
        for (Evaluator arg : args) {
            if (!arg.type().kind().isNumeric()) {
                throw mismatch(call);
            }
        }
    }

    private static WarpException mismatch(Call call) {
        return new WarpException(SqlState.DATATYPE_MISMATCH, "operator does not apply to these types: " + call + " "
                + call.args().stream().map(a -> a.type().sqlName()).toList());
    }
}
