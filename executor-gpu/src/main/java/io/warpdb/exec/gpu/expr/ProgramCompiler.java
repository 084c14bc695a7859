package io.warpdb.exec.gpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Pow10;
import io.warpdb.core.value.Timestamps;
import io.warpdb.exec.gpu.column.MergedDictionary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles expression trees into {@link Program}s for the GPU interpreter with the CPU
 * executor's semantics: exact arithmetic on scaled longs rounded HALF_UP (integer division
 * truncates) with overflow errors, doubles where an operand is DOUBLE, three-valued logic.
 * A call whose only non-constant argument is a string (comparison with a constant, LIKE, IN,
 * SUBSTRING, CAST from a string, ...) is evaluated once per dictionary entry through the
 * {@link EntryEvaluator} and becomes a lookup by code. Without an entry evaluator the compiler
 * only checks support (for placement). Anything else throws {@link Unsupported}.
 *
 * <p>CASE, COALESCE, AND and OR evaluate operands lazily, as the CPU executor does: an operand
 * that can raise an error (overflow, division by zero, a failing dictionary entry) is bracketed
 * by guard instructions so that only the rows SQL evaluates it for report its errors (vm.cuh,
 * "Lazy evaluation"). Guards hold no slot; their levels are the nesting depth of the lazy
 * operators ({@link #guardDepth}).
 */
public final class ProgramCompiler {
    /** The CPU executor's per-string operators (see its ExprCompiler), plus CAST from strings. */
    private static final Set<Op> PER_STRING_OPS = EnumSet.of(Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE, Op.LIKE, Op.IN,
            Op.CHAR_LENGTH, Op.UPPER, Op.LOWER, Op.TRIM, Op.LTRIM, Op.RTRIM, Op.SUBSTRING, Op.CONCAT, Op.REPLACE, Op.STRPOS,
            Op.LEFT, Op.RIGHT, Op.LPAD, Op.RPAD, Op.SPLIT_PART, Op.STARTS_WITH, Op.REGEXP_MATCHES, Op.REGEXP_REPLACE, Op.CAST);
    /** The string functions a select may evaluate per distinct combination of several columns' values ({@link #combinesStrings}). */
    private static final Set<Op> COMBINED_OPS = EnumSet.of(Op.CONCAT, Op.REPLACE, Op.STRPOS, Op.STARTS_WITH, Op.LEFT, Op.RIGHT,
            Op.SPLIT_PART);
    /** The operators that evaluate their operands lazily, as the CPU executor does. */
    private static final Set<Op> LAZY_OPS = EnumSet.of(Op.CASE, Op.COALESCE, Op.AND, Op.OR);
    /** Registers of the interpreter (vm.cuh VM_SLOTS; VmConstantsTest checks they agree). */
    static final int MAX_SLOTS = 24;
    /** ROUND_I's rounding modes (vm.cuh ROUND_*). */
    static final int ROUND_DOWN = 0;
    static final int ROUND_FLOOR = 1;
    static final int ROUND_CEILING = 2;
    /** MATH_F's functions (vm.cuh MATH_*), by operator, in the order of their numbers. */
    static final List<Op> MATH_FUNCTIONS = List.of(Op.SQRT, Op.EXP, Op.LN, Op.LOG10, Op.FLOOR, Op.CEIL, Op.SIGN, Op.TRUNC);
    /** TS_PART's parts (vm.cuh PART_*), by operator, in the order of their numbers. */
    static final List<Op> TIME_PARTS = List.of(Op.EXTRACT_HOUR, Op.EXTRACT_MINUTE, Op.EXTRACT_SECOND, Op.EXTRACT_MILLISECOND,
            Op.EXTRACT_MICROSECOND, Op.EXTRACT_EPOCH);

    private final List<DataType> inputTypes;
    private final List<StringDictionary> inputDictionaries;
    private final List<Boolean> inputNullable;
    private final EntryEvaluator entries;
    private final List<int[]> code = new ArrayList<>();
    // Constants and lookup tables hold a value per dictionary entry (millions for a comment column): unboxed, and the
    // tables kept as the pieces they are made of (a per-entry table is shared by every program that reads it).
    private long[] consts = new long[16];
    private int constCount;
    private final List<int[]> tables = new ArrayList<>();
    private int tableSize;
    // A per-entry result used twice in one program (TPC-H Q22 takes SUBSTRING(c_phone, 1, 2) seven times) has one table.
    private final Map<EntryEvaluator.EntryValues, PlacedTable> placedTables = new IdentityHashMap<>();
    private final List<Program.Output> outputs = new ArrayList<>();
    /** Errors of dictionary entries, by their position in {@link #tables}. */
    private final java.util.Map<Integer, io.warpdb.core.error.WarpException> entryErrors = new java.util.HashMap<>();
    private int nextSlot;
    /** Table positions of the lookup tables that have a failing entry: a lookup into one can raise. */
    private final Set<Integer> failingTables = new HashSet<>();
    /** When checking support, the calls a select evaluates before its program ({@link #combinedCalls}); at run time they are columns. */
    private List<Call> combined = List.of();
    /** Guard levels in use by the lazy operators around the operand being compiled (vm.cuh levels start at 1). */
    private int guardDepth;

    /**
     * A value in a slot: its type, whether it can be NULL, its dictionary when a string. A wide
     * DECIMAL is a 128-bit value, its high word in the slot's second register (vm.cuh WIDE); every
     * other type, {@link #isWidening widenings} read as their argument included, is 64 bits.
     */
    private record Operand(int slot, DataType type, boolean nullable, StringDictionary dictionary) {
        int scale() {
            return Decimals.scaleOf(type);
        }

        boolean isWide() {
            return type.isWideDecimal();
        }

        boolean isDouble() {
            return type.kind() == TypeKind.DOUBLE;
        }
    }

    /**
     * @param inputTypes column types of the input
     * @param inputDictionaries dictionaries of string columns (null entries elsewhere; null when only checking)
     * @param inputNullable whether each column holds NULLs
     * @param entries evaluates string calls per dictionary entry; null to check support only
     */
    public ProgramCompiler(List<DataType> inputTypes, List<StringDictionary> inputDictionaries, List<Boolean> inputNullable,
            EntryEvaluator entries) {
        this.inputTypes = inputTypes;
        this.inputDictionaries = inputDictionaries;
        this.inputNullable = inputNullable;
        this.entries = entries;
    }

    /** The wide DECIMAL functions the interpreter does not compute: their arguments and results stay on the CPU. */
    private static final Set<Op> WIDE_ON_CPU = EnumSet.of(Op.ROUND, Op.FLOOR, Op.CEIL, Op.SIGN, Op.TRUNC, Op.SQRT, Op.EXP,
            Op.LN, Op.LOG10, Op.POWER);

    /**
     * TIMESTAMP and INTERVAL (int64 microseconds), SMALLINT and TINYINT (int32) and REAL (a double
     * rounded to a float's precision): the operators carry, compare, group, sort and join them as
     * their physical form, whose arithmetic, casts and functions are not theirs (a range, a unit,
     * a rounding); {@link #requireCarried} keeps such expressions on the CPU.
     */
    public static boolean isCarried(DataType type) {
        return type.kind() == TypeKind.TIMESTAMP || type.kind() == TypeKind.INTERVAL || type.isNarrowInteger() || type.isReal();
    }

    /**
     * Refuses a call that would compute with a {@link #isCarried carried} type beyond its physical
     * form: a TIMESTAMP or INTERVAL operand or result but in comparisons (a DATE compared with a
     * TIMESTAMP as its midnight), IN, IS [NOT] NULL, CASE and COALESCE among values of its own type
     * (not DATE's days, not BIGINT), the date and time functions ({@link #timestampFunction}), the
     * INTERVAL between two TIMESTAMPs and CASTs between DATE and TIMESTAMP or from strings; a
     * SMALLINT, TINYINT or REAL result but from arithmetic and CASTs (range-checked to its bits,
     * rounded to float32) and from CASE or COALESCE among values of exactly that type (elsewhere,
     * e.g. in math functions, a narrowing's range check or a float's rounding would be missing).
     * SMALLINT, TINYINT and REAL operands of other calls are INTEGER and DOUBLE values, as the CPU
     * reads them.
     */
    private static void requireCarried(Call call) {
        boolean temporal = isTemporal(call.type()) || call.args().stream().anyMatch(a -> isTemporal(a.type()));
        boolean narrowResult = call.type().isNarrowInteger() || call.type().isReal();
        if (!temporal && !narrowResult) {
            return;
        }
        boolean sameKinds = call.args().stream().allMatch(a -> a.type().kind() == call.arg(0).type().kind());
        if (!temporal) {
            // A SMALLINT, TINYINT or REAL result of arithmetic or a CAST is range-checked or rounded as the CPU does (checkFits, declared).
            switch (call.op()) {
                case ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD, NEGATE, CAST -> {
                    return;
                }
                default -> {
                }
            }
        }
        boolean ok = switch (call.op()) {
            case EQ, NE, LT, LE, GT, GE -> !narrowResult && (sameKinds || call.args().stream().allMatch(a -> isDatetime(a.type())));
            case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM, IN -> !narrowResult && sameKinds;
            case IS_NULL, IS_NOT_NULL -> !narrowResult;
            case EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY, EXTRACT_DOW, EXTRACT_DOY, EXTRACT_HOUR, EXTRACT_MINUTE,
                    EXTRACT_SECOND, EXTRACT_MILLISECOND, EXTRACT_MICROSECOND, EXTRACT_EPOCH, DATE_TRUNC, TIMESTAMP_ADD_MICROS,
                    TIMESTAMP_ADD_MONTHS, DATE_DIFF_DAYS -> !narrowResult;
            case SUBTRACT -> call.type().kind() == TypeKind.INTERVAL && call.args().stream().allMatch(a -> isDatetime(a.type()));
            case CAST -> !narrowResult && (isDatetime(call.type()) && isDatetime(call.arg(0).type())
                    || call.arg(0).type().kind().isString() || call.arg(0).type().kind() == call.type().kind());
            case CASE, COALESCE -> valueOperands(call).stream().allMatch(a -> sameVariant(a.type(), call.type()));
            default -> false;
        };
        if (!ok) {
            throw new Unsupported(call.op() + " of " + call.args().stream().map(a -> a.type().sqlName()).toList() + " as "
                    + call.type().sqlName() + " runs on the CPU");
        }
    }

    private static boolean isTemporal(DataType type) {
        return type.kind() == TypeKind.TIMESTAMP || type.kind() == TypeKind.INTERVAL;
    }

    /** DATE or TIMESTAMP: the kinds that convert into each other (a DATE as its midnight, a TIMESTAMP as its day). */
    private static boolean isDatetime(DataType type) {
        return type.kind() == TypeKind.DATE || type.kind() == TypeKind.TIMESTAMP;
    }

    /** The operands whose value a CASE (THEN and ELSE values, not its conditions) or COALESCE (all) may give. */
    private static List<Expr> valueOperands(Call call) {
        if (call.op() == Op.COALESCE) {
            return call.args();
        }
        List<Expr> values = new ArrayList<>();
        for (int i = 1; i < call.args().size(); i += 2) {
            values.add(call.arg(i));
        }
        if (call.args().size() % 2 == 1) {
            values.add(call.arg(call.args().size() - 1));
        }
        return values;
    }

    /** The same type but for nullability: kind, precision (SMALLINT, TINYINT, REAL) and scale. */
    private static boolean sameVariant(DataType a, DataType b) {
        return a.kind() == b.kind() && a.precision() == b.precision() && a.scale() == b.scale();
    }

    /** Only checks that {@code exprs} over columns of {@code inputTypes} can run on the GPU. */
    public static void check(List<DataType> inputTypes, List<Expr> exprs) {
        List<Boolean> nullable = inputTypes.stream().map(t -> true).toList();
        ProgramCompiler c = new ProgramCompiler(inputTypes, null, nullable, null);
        c.combined = combinedCalls(exprs);
        exprs.forEach(c::add);
    }

    /** Adds an expression whose result is converted to {@code type}'s physical form. */
    public Program.Output add(Expr expr, DataType type) {
        return finish(coerce(compile(expr), type));
    }

    public Program.Output add(Expr expr) {
        return finish(compile(expr));
    }

    private Program.Output finish(Operand result) {
        int start = outputs.isEmpty() ? 0 : end(outputs.get(outputs.size() - 1));
        Program.Output out = new Program.Output(start, code.size() - start, result.slot(), result.type(), result.nullable(),
                result.dictionary());
        outputs.add(out);
        nextSlot = 0;
        return out;
    }

    private static int end(Program.Output o) {
        return o.start() + o.length();
    }

    /** Appends {@code table} (not to be changed afterwards) to the lookup tables; returns where it starts. */
    private int addTable(int[] table) {
        int start = tableSize;
        tables.add(table);
        tableSize += table.length;
        return start;
    }

    /** Appends {@code values} to the constants; returns where they start. */
    private int addConstants(long... values) {
        if (constCount + values.length > consts.length) {
            consts = Arrays.copyOf(consts, Math.max(2 * consts.length, constCount + values.length));
        }
        System.arraycopy(values, 0, consts, constCount, values.length);
        constCount += values.length;
        return constCount - values.length;
    }

    public Program build() {
        int[] flat = new int[code.size() * Program.INSTRUCTION_INTS];
        for (int i = 0; i < code.size(); i++) {
            System.arraycopy(code.get(i), 0, flat, i * Program.INSTRUCTION_INTS, Program.INSTRUCTION_INTS);
        }
        return new Program(flat, Arrays.copyOf(consts, constCount), List.copyOf(tables), List.copyOf(outputs),
                java.util.Map.copyOf(entryErrors));
    }

    // ---- expressions ----

    private Operand compile(Expr expr) {
        if (expr instanceof ColumnRef ref) {
            return column(ref);
        }
        if (expr instanceof Literal literal) {
            return literal(literal);
        }
        Call call = (Call) expr;
        if (WIDE_ON_CPU.contains(call.op()) && (call.type().isWideDecimal() || readsWide(call))) {
            throw new Unsupported(call.op() + " of " + call.args().stream().map(a -> a.type().sqlName()).toList() + " as "
                    + call.type().sqlName() + " runs on the CPU");
        }
        if (combined.contains(call)) {
            // Evaluated on the host with the CPU's functions: only its operands must compute on the GPU.
            return combination(call);
        }
        if (call.op() == Op.CAST && call.type().kind() == TypeKind.VARCHAR && !call.arg(0).type().kind().isString()
                && !readsColumn(call) && !call.arg(0).type().isWideDecimal()) {
            // A constant's text (CAST(1.50 AS VARCHAR(4))), by the CPU's formatting, as the one entry of a constant
            // dictionary (which the CAST does not read); an entry that fails raises only for the rows that use it.
            return perDictionaryEntry(call, new Literal("", DataType.VARCHAR));
        }
        requireCarried(call);
        Expr soleString = perEntryArgument(call);
        if (soleString != null) {
            return perDictionaryEntry(call, soleString);
        }
        return switch (call.op()) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD -> arithmetic(call);
            case NEGATE -> negate(call);
            case EQ, NE, LT, LE, GT, GE -> compare(call, Opcode.CMP_I, Opcode.CMP_F, comparisonCode(call.op()));
            case IS_DISTINCT_FROM -> compare(call, Opcode.DISTINCT_I, Opcode.DISTINCT_F, 0);
            case IS_NOT_DISTINCT_FROM -> compare(call, Opcode.DISTINCT_I, Opcode.DISTINCT_F, 1);
            case AND, OR -> logical(call);
            case NOT -> unary(Opcode.NOT, 0, compile(call.arg(0)), call.type(), null);
            case IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> truth(call);
            case CASE -> caseWhen(call);
            case COALESCE -> coalesce(call);
            case CAST -> cast(call.type().kind().isExactNumeric() ? compileReadingWidenings(call.arg(0)) : compile(call.arg(0)), call.type());
            case IN -> in(call);
            case EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY, EXTRACT_DOW, EXTRACT_DOY -> extract(call);
            case EXTRACT_HOUR, EXTRACT_MINUTE, EXTRACT_SECOND, EXTRACT_MILLISECOND, EXTRACT_MICROSECOND, EXTRACT_EPOCH ->
                    coerce(unary(Opcode.TS_PART, TIME_PARTS.indexOf(call.op()), timestamp(call.arg(0)), DataType.BIGINT, null), call.type());
            case DATE_TRUNC -> dateTrunc(call);
            case TIMESTAMP_ADD_MICROS, TIMESTAMP_ADD_MONTHS -> timestampAdd(call);
            case DATE_DIFF_DAYS -> checkFits(binary(Opcode.SUB_I, date(call.arg(1)), date(call.arg(0)), call.type()));
            case DATE_ADD_DAYS, DATE_ADD_MONTHS -> dateAdd(call);
            case ABS -> abs(call);
            case ROUND -> round(call);
            case FLOOR, CEIL, SIGN, TRUNC -> roundToward(call);
            case SQRT, EXP, LN, LOG10 -> unary(Opcode.MATH_F, mathFunction(call.op()), toDouble(call), call.type(), null);
            case POWER -> binary(Opcode.POW_F, coerce(compile(call.arg(0)), DataType.DOUBLE), coerce(compile(call.arg(1)), DataType.DOUBLE),
                    call.type());
            default -> throw new Unsupported(call.op() + " runs on the CPU");
        };
    }

    /** An operand of a comparison or of a CAST to an exact type, which read a {@link #isWidening widening} CAST's value alike. */
    private Operand compileReadingWidenings(Expr expr) {
        return isWidening(expr) ? widening(expr) : compile(expr);
    }

    /**
     * Whether {@code expr} is a DECIMAL of more than 18 digits whose value fits the interpreter's 64
     * bits: a CAST of an exact number of at most 18 digits to no smaller scale (Calcite's common
     * type of a BIGINT and a DECIMAL: {@code 1.5 <= bigint_column}), whose value the interpreter
     * keeps at the argument's own scale; or a constant of at most 18 decimals whose unscaled value
     * fits 64 bits (the {@code 1.5} there).
     */
    private static boolean isWidening(Expr expr) {
        if (expr instanceof Literal literal) {
            return literal.type().isWideDecimal() && literal.type().scale() <= DataType.MAX_DECIMAL_PRECISION
                    && (literal.value() == null || ((java.math.BigInteger) literal.value()).bitLength() < Long.SIZE);
        }
        return expr instanceof Call call && call.op() == Op.CAST && call.type().isWideDecimal()
                && call.arg(0).type().kind().isExactNumeric() && !call.arg(0).type().isWideDecimal()
                && Decimals.scaleOf(call.arg(0).type()) <= call.type().scale();
    }

    /**
     * A {@link #isWidening} constant as a DECIMAL of 18 digits, or CAST as its argument's value at
     * the argument's scale, with the declared precision's check where the argument can exceed it. Only comparisons (exact at any
     * scales) and CASTs to exact types of at most 18 digits read it ({@link #compileReadingWidenings}):
     * a 128-bit value never reaches a column, nor a conversion to DOUBLE (the CPU's from 128 bits may round otherwise).
     */
    private Operand widening(Expr expr) {
        if (expr instanceof Literal literal) {
            java.math.BigInteger unscaled = (java.math.BigInteger) literal.value();
            DataType narrow = DataType.decimal(DataType.MAX_DECIMAL_PRECISION, literal.type().scale());
            return literal(unscaled == null ? Literal.ofNull(narrow) : Literal.ofLong(unscaled.longValueExact(), narrow));
        }
        Call cast = (Call) expr;
        Operand a = compile(cast.arg(0));
        int integerDigits = cast.type().precision() - cast.type().scale();
        int digitsAtArgumentScale = integerDigits + a.scale();
        if (digitsAtArgumentScale <= DataType.MAX_DECIMAL_PRECISION) {
            emit(Opcode.CHECK_PRECISION, a.slot(), a.slot(), 0, 0, digitsAtArgumentScale);
        }
        return a;
    }

    private Operand column(ColumnRef ref) {
        DataType type = inputTypes.get(ref.index());
        Opcode load = type.isWideDecimal() ? Opcode.COL_W : switch (type.kind()) {
            case BOOLEAN -> Opcode.COL_U8;
            case INTEGER, DATE, VARCHAR, CHAR -> Opcode.COL_I32;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> Opcode.COL_I64;
            case DOUBLE -> Opcode.COL_F64;
        };
        int slot = newSlot();
        emit(load, slot, ref.index(), 0, 0, 0);
        StringDictionary dict = inputDictionaries == null ? null : inputDictionaries.get(ref.index());
        return new Operand(slot, type, inputNullable.get(ref.index()), type.kind().isString() ? dictOrEmpty(dict) : null);
    }

    private Operand literal(Literal literal) {
        int slot = newSlot();
        Object v = literal.value();
        if (v == null) {
            emit(Opcode.NULL, slot, 0, 0, 0, 0);
            return new Operand(slot, literal.type(), true,
                    literal.type().kind().isString() ? StringDictionary.EMPTY : null);
        }
        if (v instanceof java.math.BigInteger unscaled) {
            // A wide DECIMAL's words, low then high (its precision keeps it within 128 bits).
            emit(Opcode.CONST_W, slot, addConstants(unscaled.longValue(), unscaled.shiftRight(Long.SIZE).longValue()), 0, 0, 0);
            return new Operand(slot, literal.type(), false, null);
        }
        long bits;
        StringDictionary dict = null;
        if (v instanceof Boolean b) {
            bits = b ? 1 : 0;
        } else if (v instanceof Long l) {
            bits = l;
        } else if (v instanceof Double d) {
            bits = Double.doubleToRawLongBits(d);
        } else {
            bits = 0;
            dict = StringDictionary.ofDistinct(List.of((String) v));
        }
        emit(Opcode.CONST, slot, constant(bits), 0, 0, 0);
        return new Operand(slot, literal.type(), false, dict);
    }

    /**
     * The argument to evaluate the call over per dictionary entry, where the operator maps strings
     * one by one: its only argument that reads a column, if that is a string; or, when no argument
     * reads a column (a CAST of a string constant, CONCAT of constants), its first string argument,
     * whose dictionary has the one entry. Null otherwise.
     */
    private static Expr perEntryArgument(Call call) {
        if (!PER_STRING_OPS.contains(call.op())) {
            return null;
        }
        Expr found = null;
        for (Expr arg : call.args()) {
            if (readsColumn(arg)) {
                if (found != null) {
                    return null;
                }
                found = arg;
            }
        }
        if (found == null) {
            return call.args().stream().filter(a -> a.type().kind().isString()).findFirst().orElse(null);
        }
        return found.type().kind().isString() ? found : null;
    }

    /**
     * Whether {@code e} is a string function whose value depends on a combination of values, not on
     * one dictionary's entries: a string function of several operands that read columns (CONCAT(a, b)
     * and TPC-DS q84's {@code concat(concat(coalesce(last, ''), ', '), coalesce(first, ''))},
     * REPLACE(a, b, '_'), STRPOS(a, b), LEFT(a, n)), or of one that is not a string (CONCAT('#', n),
     * the implicit text of a number), or a number, date or timestamp as text ({@link #formatsAsText}).
     * The select evaluates it ({@link #combinedCalls}) before its program, once per distinct
     * combination (select/StringCombinations, with the CPU executor's functions, so the text is the
     * CPU's; -0.0 and 0.0 are distinct there), and the program reads it as a column.
     */
    private static boolean combinesStrings(Expr e) {
        if (!(e instanceof Call call) || !COMBINED_OPS.contains(call.op()) && !formatsAsText(call)) {
            return false;
        }
        if (readsWide(call)) {
            return false; // the distinct combinations are grouped on the GPU, which groups no wide DECIMAL yet
        }
        List<Expr> reading = call.args().stream().filter(ProgramCompiler::readsColumn).toList();
        return reading.size() > 1 || reading.size() == 1 && !reading.get(0).type().kind().isString();
    }

    /** Whether an argument of {@code call} is a DECIMAL of more than 18 digits. */
    private static boolean readsWide(Call call) {
        return call.args().stream().anyMatch(a -> a.type().isWideDecimal());
    }

    /**
     * The {@link #combinesStrings} calls of {@code exprs} (each evaluated for every row: a projection's
     * expressions, a predicate), outermost, each once. A select computes their operands for all its
     * input rows first, so one whose operands can raise an error (CAST(t + INTERVAL '1' DAY AS VARCHAR))
     * is combined only where SQL evaluates it for every row too: not under CASE, COALESCE, AND or OR,
     * which evaluate operands lazily (elsewhere it stays uncombined, and the GPU refuses it).
     */
    public static List<Call> combinedCalls(List<Expr> exprs) {
        List<Call> out = new ArrayList<>();
        exprs.forEach(e -> collectCombined(e, false, out));
        return out;
    }

    private static void collectCombined(Expr e, boolean lazy, List<Call> out) {
        if (!(e instanceof Call call)) {
            return;
        }
        if (combinesStrings(call) && (!lazy || call.args().stream().noneMatch(ProgramCompiler::mayRaise))) {
            if (!out.contains(call)) {
                out.add(call);
            }
            return;
        }
        boolean lazyArgs = lazy || LAZY_OPS.contains(call.op());
        call.args().forEach(a -> collectCombined(a, lazyArgs, out));
    }

    /**
     * A CAST of a value that is not a string to an unbounded VARCHAR (which no text exceeds, so it
     * cannot fail): SQL's CAST(n AS VARCHAR) and the text Calcite makes of a number for {@code ||}.
     */
    private static boolean formatsAsText(Call call) {
        return call.op() == Op.CAST && call.type().kind() == TypeKind.VARCHAR && call.type().precision() == 0
                && !call.arg(0).type().kind().isString();
    }

    /**
     * As {@link Exprs#mayRaise}, but a CAST from a string to a string (which keeps or trims the text)
     * and a {@link #formatsAsText} CAST do not raise.
     */
    private static boolean mayRaise(Expr e) {
        if (!(e instanceof Call call)) {
            return false;
        }
        boolean stringCast = call.op() == Op.CAST && call.type().kind().isString() && call.arg(0).type().kind().isString();
        return call.op().mayRaise() && !stringCast && !formatsAsText(call) || call.args().stream().anyMatch(ProgramCompiler::mayRaise);
    }

    /** Checks the operands of a {@link #combinedCalls combined} call (only when checking support: at run time it is a column). */
    private Operand combination(Call call) {
        if (entries != null) {
            throw new IllegalStateException(call + " must be evaluated before the program (StringCombinations)");
        }
        int first = nextSlot;
        List<Call> outer = combined;
        // The operands that read columns are a select of their own, which combines its own calls.
        combined = combinedCalls(call.args().stream().filter(ProgramCompiler::readsColumn).toList());
        for (Expr arg : call.args()) {
            compile(arg);
        }
        combined = outer;
        release(first);
        return new Operand(first, call.type(), true, call.type().kind().isString() ? StringDictionary.EMPTY : null);
    }

    /** Whether {@code e} reads a column (else it is a constant expression). */
    public static boolean readsColumn(Expr e) {
        boolean[] reads = {false};
        Exprs.forEachColumn(e, column -> reads[0] = true);
        return reads[0];
    }

    /**
     * Evaluates the call once per entry of its string argument's dictionary (or of a constant that it
     * does not read); the rows look the result up by code.
     */
    private Operand perDictionaryEntry(Call call, Expr stringArg) {
        DataType type = call.type();
        if (type.isWideDecimal()) {
            throw new Unsupported(call.op() + " of a string as " + type.sqlName() + " runs on the CPU");
        }
        Operand codes = compile(stringArg);
        if (call.op() == Op.CAST && type.kind() == TypeKind.VARCHAR && type.precision() == 0 && call.arg(0).type().kind().isString()) {
            return new Operand(codes.slot(), type, codes.nullable(), codes.dictionary());
        }
        if (entries == null || codes.dictionary().size() == 0) {
            // Checking support only, or no row has a value: every code is NULL, so no table is read.
            return new Operand(codes.slot(), type, true, type.kind().isString() ? StringDictionary.EMPTY : null);
        }
        ColumnRef entry = new ColumnRef(0, stringArg.type());
        List<Expr> args = call.args().stream().map(a -> a == stringArg ? (Expr) entry : a).toList();
        StringDictionary dict = codes.dictionary();
        EntryEvaluator.EntryValues perEntry = entries.evaluate(new Call(call.op(), args, type), stringArg.type(), dict);
        PlacedTable table = placedTables.computeIfAbsent(perEntry, values -> placeTable(values, type));
        boolean nullable = table.anyNull() || codes.nullable();
        if (type.kind() == TypeKind.BOOLEAN) {
            emit(Opcode.LOOKUP_BOOL, codes.slot(), codes.slot(), 0, 0, table.tableStart());
            return new Operand(codes.slot(), type, nullable, null);
        }
        if (type.kind().isString()) {
            emit(Opcode.MAP_CODE, codes.slot(), codes.slot(), 0, 0, table.tableStart());
            return new Operand(codes.slot(), type, nullable, perEntry.dictionary());
        }
        emit(Opcode.LOOKUP_I64, codes.slot(), codes.slot(), 0, table.tableStart(), table.constStart());
        return new Operand(codes.slot(), type, nullable, null);
    }

    /** Where a per-entry result's lookup table (and for numbers its values) starts, and whether an entry is NULL. */
    private record PlacedTable(int tableStart, int constStart, boolean anyNull) {
    }

    /** Appends the lookup table of per-entry values of {@code type} (see {@link EntryTable}), and for numbers their values. */
    private PlacedTable placeTable(EntryEvaluator.EntryValues perEntry, DataType type) {
        EntryTable table = EntryTable.of(perEntry, type.kind());
        int tableStart = addTable(table.table());
        int constStart = table.values() == null ? constCount : addConstants(table.values());
        io.warpdb.core.error.WarpException[] errors = perEntry.errors();
        for (int i = 0; errors != null && i < errors.length; i++) {
            if (errors[i] != null) {
                entryErrors.put(tableStart + i, errors[i]);
                failingTables.add(tableStart);
            }
        }
        return new PlacedTable(tableStart, constStart, table.anyNull());
    }

    private Operand arithmetic(Call call) {
        if (call.type().kind() == TypeKind.INTERVAL && call.op() == Op.SUBTRACT) {
            // TIMESTAMP - TIMESTAMP: the microseconds between them (a DATE as its midnight), 22003 on overflow as on the CPU.
            return binary(Opcode.SUB_I, timestamp(call.arg(0)), timestamp(call.arg(1)), call.type());
        }
        Operand a = compile(call.arg(0));
        Operand b = compile(call.arg(1));
        requireNumeric(call, a, b);
        DataType type = call.type();
        Op op = call.op();
        if (type.kind() == TypeKind.DOUBLE || a.isDouble() || b.isDouble()) {
            Operand x = toDouble(a);
            Operand y = toDouble(b);
            Opcode f = switch (op) {
                case ADD -> Opcode.ADD_F;
                case SUBTRACT -> Opcode.SUB_F;
                case MULTIPLY -> Opcode.MUL_F;
                case DIVIDE -> Opcode.DIV_F;
                default -> Opcode.MOD_F;
            };
            Operand r = binary(f, x, y, DataType.DOUBLE);
            return type.kind() == TypeKind.DOUBLE ? declared(r, type, false) : cast(r, type);
        }
        if (!type.kind().isExactNumeric()) {
            throw new Unsupported(call + " of type " + type + " runs on the CPU");
        }
        if (type.isWideDecimal() || a.isWide() || b.isWide()) {
            return wideArithmetic(op, a, b, type);
        }
        int resultScale = Decimals.scaleOf(type);
        Operand r;
        switch (op) {
            case ADD, SUBTRACT, MOD -> {
                int common = Math.max(a.scale(), b.scale());
                Operand x = scaleUp(a, common - a.scale());
                Operand y = scaleUp(b, common - b.scale());
                Opcode i = op == Op.ADD ? Opcode.ADD_I : op == Op.SUBTRACT ? Opcode.SUB_I : Opcode.MOD_I;
                r = rescale(binary(i, x, y, withScale(type, common)), resultScale);
            }
            case MULTIPLY -> {
                int productScale = a.scale() + b.scale();
                if (resultScale >= productScale) {
                    r = scaleUp(binary(Opcode.MUL_I, a, b, withScale(type, productScale)), resultScale - productScale);
                } else {
                    r = binaryImm(Opcode.MUL_RESCALE, a, b, 0, productScale - resultScale, type);
                }
            }
            default -> {
                int shift = resultScale + b.scale() - a.scale();
                int halfUp = type.kind() == TypeKind.DECIMAL ? 1 : 0;
                r = binaryImm(Opcode.DIV_SCALED, a, b, halfUp, shift, type);
            }
        }
        return checkFits(new Operand(r.slot(), type, r.nullable(), null));
    }

    private Operand negate(Call call) {
        Operand a = compile(call.arg(0));
        requireNumeric(call, a);
        if (a.isDouble()) {
            Operand r = unary(Opcode.NEG_F, 0, a, DataType.DOUBLE, null);
            return call.type().kind() == TypeKind.DOUBLE ? r : cast(r, call.type());
        }
        if (a.isWide() || call.type().isWideDecimal()) {
            return fitWide(rescaleWide(unary(Opcode.NEG_W, 0, widen(a), wideType(a.scale()), null), Decimals.scaleOf(call.type())),
                    call.type());
        }
        Operand r = unary(Opcode.NEG_I, 0, a, a.type(), null);
        return coerce(checkFits(r), call.type());
    }

    /**
     * ADD, SUBTRACT and MULTIPLY with a wide operand or result, as the CPU's
     * WideDecimalArithmeticEvaluator: on 128-bit values (a 64-bit operand widened), sums at the
     * larger scale, products at the sum of the scales, then rescaled HALF_UP to the result's scale
     * and checked against its precision (or its 64-bit range); 22003 past 128 bits at any step.
     */
    private Operand wideArithmetic(Op op, Operand a, Operand b, DataType type) {
        Operand r;
        if (op == Op.MULTIPLY) {
            int productScale = a.scale() + b.scale();
            r = binary(Opcode.MUL_W, widen(a), widen(b), wideType(productScale));
        } else if (op == Op.ADD || op == Op.SUBTRACT) {
            int common = Math.max(a.scale(), b.scale());
            Operand x = rescaleWide(widen(a), common);
            Operand y = rescaleWide(widen(b), common);
            r = binary(op == Op.ADD ? Opcode.ADD_W : Opcode.SUB_W, x, y, wideType(common));
        } else {
            throw new Unsupported(op + " of DECIMALs of more than " + DataType.MAX_DECIMAL_PRECISION + " digits runs on the CPU");
        }
        return fitWide(rescaleWide(r, Decimals.scaleOf(type)), type);
    }

    private Operand compare(Call call, Opcode exact, Opcode inexact, int imm) {
        Operand a = compileReadingWidenings(call.arg(0));
        Operand b = compileReadingWidenings(call.arg(1));
        boolean aString = a.type().kind().isString();
        boolean bString = b.type().kind().isString();
        if (aString && bString) {
            // Both as ranks in the two dictionaries' values together, which order as the strings do.
            CommonRanks ranks = CommonRanks.of(a.dictionary(), b.dictionary());
            mapCodes(a, ranks.left());
            mapCodes(b, ranks.right());
            return binaryImm(exact, a, b, 0, imm, call.type());
        }
        if (aString || bString) {
            throw new Unsupported("comparing " + a.type() + " with " + b.type() + " runs on the CPU: " + call);
        }
        if (a.isDouble() || b.isDouble()) {
            if (isWidening(call.arg(0)) || isWidening(call.arg(1))) {
                throw new Unsupported("comparing a " + call.arg(0).type() + " with a " + call.arg(1).type() + " runs on the CPU");
            }
            return binaryImm(inexact, toDouble(a), toDouble(b), 0, imm, call.type());
        }
        if (a.type().kind().isExactNumeric() && b.type().kind().isExactNumeric()) {
            if (a.isWide() || b.isWide()) {
                // Exactly at any scales, as the CPU's WideValues.compare.
                Opcode wide = exact == Opcode.CMP_I ? Opcode.CMP_W : Opcode.DISTINCT_W;
                return binaryImm(wide, widen(a), widen(b), b.scale() - a.scale(), imm, call.type());
            }
            if (a.scale() != b.scale()) {
                // Exactly, in 128 bits: the CPU compares exact numbers of any scales without overflow.
                Opcode scaled = exact == Opcode.CMP_I ? Opcode.CMP_SCALED : Opcode.DISTINCT_SCALED;
                return binaryImm(scaled, a, b, b.scale() - a.scale(), imm, call.type());
            } // one scale (an INTEGER with a BIGINT): as 64-bit integers
        } else if (a.type().kind() == TypeKind.DATE && b.type().kind() == TypeKind.TIMESTAMP) {
            a = cast(a, b.type());  // a DATE compares as its midnight
        } else if (a.type().kind() == TypeKind.TIMESTAMP && b.type().kind() == TypeKind.DATE) {
            b = cast(b, a.type());
        } else if (a.type().kind() != b.type().kind()) {
            throw new Unsupported("comparing " + a.type() + " with " + b.type() + " runs on the CPU");
        }
        return binaryImm(exact, a, b, 0, imm, call.type());
    }

    /** The interpreter's comparison code (vm.cuh compareResult): 0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE; -1 otherwise. */
    public static int comparisonCode(Op op) {
        return switch (op) {
            case EQ -> 0;
            case NE -> 1;
            case LT -> 2;
            case LE -> 3;
            case GT -> 4;
            case GE -> 5;
            default -> -1;
        };
    }

    /**
     * AND / OR, left to right: an argument that can raise is guarded so that it runs only where
     * the arguments before it leave the result open (AND: not FALSE; OR: not TRUE).
     */
    private Operand logical(Call call) {
        boolean and = call.op() == Op.AND;
        int level = enterGuards(1);
        Operand acc = compile(call.arg(0));
        boolean guarded = false;
        for (int i = 1; i < call.args().size(); i++) {
            int mark = code.size();
            Operand next = compile(call.arg(i));
            guarded |= guard(mark, level, acc.slot(), and ? GUARD_NOT_FALSE : GUARD_NOT_TRUE);
            acc = binary(and ? Opcode.AND : Opcode.OR, acc, next, call.type());
        }
        exitGuards(level, 1, guarded);
        return acc;
    }

    private Operand truth(Call call) {
        int imm = switch (call.op()) {
            case IS_NULL -> 0;
            case IS_NOT_NULL -> 1;
            case IS_TRUE -> 2;
            case IS_NOT_TRUE -> 3;
            case IS_FALSE -> 4;
            default -> 5;
        };
        Operand a = compile(call.arg(0));
        emit(Opcode.TRUTH, a.slot(), a.slot(), 0, 0, imm);
        return new Operand(a.slot(), call.type(), false, null);
    }

    /**
     * CASE(w1, t1, ..., else), in order into a result slot: CASE_THEN takes t_i where w_i is TRUE
     * and excludes those rows (guard level L) from the later WHENs, branches and ELSE; a branch
     * that can raise is guarded by its own WHEN (level L + 1), and CASE_ELSE ends the CASE.
     */
    private Operand caseWhen(Call call) {
        DataType type = call.type();
        List<Expr> args = withElseCasesInline(call);
        if (args.size() == 1) {
            return coerce(compile(args.get(0)), type);
        }
        int level = enterGuards(2);
        int result = newSlot();
        boolean nullable = false;
        List<StringChoice> choices = new ArrayList<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            Operand when = compile(args.get(i));
            int mark = code.size();
            Operand then = coerce(compile(args.get(i + 1)), type);
            guard(mark, level + 1, when.slot(), GUARD_TRUE);
            choices.add(new StringChoice(code.size(), then));
            emit(Opcode.CASE_THEN, result, when.slot(), then.slot(), level, i == 0 ? 1 : 0);
            nullable |= then.nullable();
            release(result);
        }
        Operand otherwise = coerce(compile(args.get(args.size() - 1)), type);
        choices.add(new StringChoice(code.size(), otherwise));
        emit(Opcode.CASE_ELSE, result, otherwise.slot(), 0, level, 0);
        nullable |= otherwise.nullable();
        release(result);
        exitGuards(level, 2, false);
        return new Operand(result, type, nullable, type.kind().isString() ? unifyDictionaries(choices) : null);
    }

    /** A string operand a CASE or COALESCE may choose, and where (before which instruction) its codes are final. */
    private record StringChoice(int at, Operand operand) {
    }

    /**
     * The one dictionary of a CASE's or COALESCE's string result: the operands' dictionaries
     * merged on the host, each operand's codes renumbered into it (a MAP_CODE inserted where its
     * codes are final, before the instruction that chooses it), so the device only moves codes.
     */
    private StringDictionary unifyDictionaries(List<StringChoice> choices) {
        MergedDictionary merged = MergedDictionary.of(choices.stream().map(c -> c.operand().dictionary()).toList());
        if (merged.renumbers()) {
            Map<int[], Integer> placed = new IdentityHashMap<>();
            // From the last: an insertion moves the instructions after it, not the places before.
            for (int i = choices.size() - 1; i >= 0; i--) {
                StringChoice choice = choices.get(i);
                int table = placed.computeIfAbsent(merged.codeMap(choice.operand().dictionary()), this::placeCodeMap);
                int slot = choice.operand().slot();
                code.add(choice.at(), new int[] {Opcode.MAP_CODE.code(), slot, slot, 0, 0, table});
            }
        }
        return merged.dictionary();
    }

    /** Renumbers the codes in {@code a}'s slot by {@code newCodes} (in place). */
    private void mapCodes(Operand a, int[] newCodes) {
        emit(Opcode.MAP_CODE, a.slot(), a.slot(), 0, 0, placeCodeMap(newCodes));
    }

    /** Appends a table of new codes by old code (none NULL, none failing) for MAP_CODE; returns its position. */
    private int placeCodeMap(int[] newCodes) {
        return addTable(newCodes);
    }

    /**
     * The arguments of a CASE whose ELSE is a CASE of the same type, with that CASE's WHENs and
     * ELSE appended (repeatedly): it evaluates alike, and the chain needs one result slot, not one per level.
     */
    private static List<Expr> withElseCasesInline(Call call) {
        List<Expr> args = new ArrayList<>(call.args());
        DataType type = call.type().withNullable(true);
        while (args.get(args.size() - 1) instanceof Call inner && inner.op() == Op.CASE
                && inner.type().withNullable(true).equals(type)) {
            args.remove(args.size() - 1);
            args.addAll(inner.args());
        }
        return args;
    }

    /** COALESCE, left to right; an argument that can raise is guarded: it runs only where the earlier ones are all NULL. */
    private Operand coalesce(Call call) {
        DataType type = call.type();
        List<Expr> args = call.args();
        int level = enterGuards(1);
        Operand result = coerce(compile(args.get(0)), type);
        List<StringChoice> choices = new ArrayList<>();
        choices.add(new StringChoice(code.size(), result));
        boolean nullable = result.nullable();
        boolean guarded = false;
        for (int i = 1; i < args.size(); i++) {
            int mark = code.size();
            Operand a = coerce(compile(args.get(i)), type);
            guarded |= guard(mark, level, result.slot(), GUARD_NULL);
            choices.add(new StringChoice(code.size(), a));
            emit(Opcode.COALESCE, result.slot(), result.slot(), a.slot(), 0, 0);
            nullable &= a.nullable();
            release(result.slot());
        }
        exitGuards(level, 1, guarded);
        return new Operand(result.slot(), type, nullable, type.kind().isString() ? unifyDictionaries(choices) : null);
    }

    /** IN over a non-string value: x = v1 OR x = v2 ..., which has IN's NULL semantics. */
    private Operand in(Call call) {
        Expr x = call.arg(0);
        Expr any = null;
        for (Expr v : call.args().subList(1, call.args().size())) {
            Expr eq = Call.of(Op.EQ, call.type(), x, v);
            any = any == null ? eq : Call.of(Op.OR, call.type(), any, eq);
        }
        return compile(any);
    }

    private Operand extract(Call call) {
        Operand date = date(call.arg(0));
        int field = switch (call.op()) {
            case EXTRACT_YEAR -> 0;
            case EXTRACT_QUARTER -> 1;
            case EXTRACT_MONTH -> 2;
            case EXTRACT_DAY -> 3;
            case EXTRACT_DOW -> 4;
            default -> 5;
        };
        return coerce(unary(Opcode.EXTRACT, field, date, DataType.BIGINT, null), call.type());
    }

    /** A DATE or TIMESTAMP operand as DATE days (a TIMESTAMP's day, 22003 beyond DATE's range), as the CPU builds it. */
    private Operand date(Expr expr) {
        Operand a = compile(expr);
        if (!isDatetime(a.type())) {
            throw new Unsupported(a.type() + " as a DATE runs on the CPU");
        }
        return cast(a, DataType.DATE);
    }

    /** A DATE or TIMESTAMP operand as TIMESTAMP microseconds (a DATE's midnight). */
    private Operand timestamp(Expr expr) {
        Operand a = compile(expr);
        if (!isDatetime(a.type())) {
            throw new Unsupported(a.type() + " as a TIMESTAMP runs on the CPU");
        }
        return cast(a, DataType.TIMESTAMP);
    }

    /** DATE_TRUNC(unit, x): x as a TIMESTAMP rounded down to the unit, a string constant (the CPU reads it alike). */
    private Operand dateTrunc(Call call) {
        if (!(call.arg(0) instanceof Literal literal && literal.value() instanceof String unit)) {
            throw new Unsupported("DATE_TRUNC to a unit that is not a constant runs on the CPU");
        }
        Timestamps.Unit truncation;
        try {
            truncation = Timestamps.Unit.of(unit);
        } catch (io.warpdb.core.error.WarpException e) {
            throw new Unsupported("DATE_TRUNC to '" + unit + "' runs on the CPU, which reports the unknown unit");
        }
        return unary(Opcode.TS_TRUNC, truncation.ordinal(), timestamp(call.arg(1)), call.type(), null);
    }

    /** TIMESTAMP_ADD_MICROS and TIMESTAMP_ADD_MONTHS (timestamp, amount): the amount as the CPU reads it, a BIGINT. */
    private Operand timestampAdd(Call call) {
        Operand ts = timestamp(call.arg(0));
        Operand amount = compile(call.arg(1));
        TypeKind kind = amount.type().kind();
        if (!(kind == TypeKind.INTEGER || kind == TypeKind.BIGINT || kind == TypeKind.INTERVAL)) {
            throw new Unsupported(call + " runs on the CPU");
        }
        return binary(call.op() == Op.TIMESTAMP_ADD_MICROS ? Opcode.TS_ADD_MICROS : Opcode.TS_ADD_MONTHS, ts, amount, call.type());
    }

    private Operand dateAdd(Call call) {
        Operand date = compile(call.arg(0));
        Operand amount = compile(call.arg(1));
        if (date.type().kind() != TypeKind.DATE || !(amount.type().kind() == TypeKind.INTEGER
                || amount.type().kind() == TypeKind.BIGINT)) {
            throw new Unsupported(call + " runs on the CPU");
        }
        return binary(call.op() == Op.DATE_ADD_DAYS ? Opcode.ADD_DAYS : Opcode.ADD_MONTHS, date, amount, call.type());
    }

    /** ABS: exact values at the argument's scale (the most negative one overflows), then to the result's type; DOUBLE as is. */
    private Operand abs(Call call) {
        Operand a = compile(call.arg(0));
        requireNumeric(call, a);
        if (a.isDouble()) {
            return coerce(unary(Opcode.ABS_F, 0, a, DataType.DOUBLE, null), call.type());
        }
        if (a.isWide() || call.type().isWideDecimal()) {
            return fitWide(rescaleWide(unary(Opcode.ABS_W, 0, widen(a), wideType(a.scale()), null), Decimals.scaleOf(call.type())),
                    call.type());
        }
        return toResultType(unary(Opcode.ABS_I, 0, a, a.type(), null), call.type());
    }

    /**
     * ROUND(x [, digits]) half away from zero, as the CPU's MathFunctionEvaluator: an exact value
     * is rounded at its own scale (divided by 10^dropped digits HALF_UP, multiplied back) and then
     * brought to the result's type; a DOUBLE is scaled by 10^digits (computed on the host, as Java
     * does), rounded and scaled back.
     */
    private Operand round(Call call) {
        Operand a = compile(call.arg(0));
        requireNumeric(call, a);
        int digits = 0;
        if (call.args().size() > 1) {
            if (!(call.arg(1) instanceof Literal literal && literal.value() instanceof Long value && (int) (long) value == value)) {
                throw new Unsupported("ROUND to digits that are not an integer constant runs on the CPU");
            }
            digits = (int) (long) (Long) ((Literal) call.arg(1)).value();
        }
        if (a.isDouble()) {
            int modifier = constant(Double.doubleToRawLongBits(Math.pow(10, Math.abs(digits))));
            Operand r = binaryImm(Opcode.ROUND_F, a, a, digits < 0 ? 1 : 0, modifier, DataType.DOUBLE);
            return coerce(r, call.type());
        }
        int drop = a.scale() - digits;
        if (drop > Pow10.MAX_EXPONENT) {
            throw new Unsupported("ROUND to " + digits + " digits of " + a.type() + " runs on the CPU");
        }
        // Dropped digits are divided away and multiplied back: the value stays at the argument's scale.
        Operand rounded = drop <= 0 ? a : unary(Opcode.SCALE_UP, drop, unary(Opcode.RESCALE, drop, a, a.type(), null), a.type(), null);
        return toResultType(rounded, call.type());
    }

    /**
     * FLOOR, CEIL, SIGN and TRUNC(x [, digits]) as the CPU's MathFunctionEvaluator computes them:
     * for a DOUBLE result, on the argument as a double (FLOOR, CEIL, SIGN as Java's Math, TRUNC to
     * an integer), and so for a DOUBLE argument, the double then cast to the result's type; otherwise on the exact value at its own scale, rounded to a multiple of
     * 10^dropped digits by the function's mode (FLOOR, CEILING, DOWN) or replaced by its sign, and
     * brought to the result's type.
     */
    private Operand roundToward(Call call) {
        int digits = call.op() == Op.TRUNC ? constantDigits(call) : 0;
        if (call.type().kind() == TypeKind.DOUBLE) {
            if (digits != 0) {
                throw new Unsupported("TRUNC of a DOUBLE to " + digits + " digits runs on the CPU");
            }
            return unary(Opcode.MATH_F, mathFunction(call.op()), toDouble(call), DataType.DOUBLE, null);
        }
        Operand a = compile(call.arg(0));
        requireNumeric(call, a);
        if (a.isDouble()) {
            // As the CPU: computed on the double, then cast to the exact result type.
            if (digits != 0) {
                throw new Unsupported(call + " of a DOUBLE to " + digits + " digits typed " + call.type() + " runs on the CPU");
            }
            return cast(unary(Opcode.MATH_F, mathFunction(call.op()), a, DataType.DOUBLE, null), call.type());
        }
        if (call.op() == Op.SIGN) {
            return toResultType(unary(Opcode.SIGN_I, a.scale(), a, a.type(), null), call.type());
        }
        int drop = a.scale() - digits;
        if (drop > Pow10.MAX_EXPONENT) {
            throw new Unsupported(call.op() + " to " + digits + " digits of " + a.type() + " runs on the CPU");
        }
        int mode = switch (call.op()) {
            case FLOOR -> ROUND_FLOOR;
            case CEIL -> ROUND_CEILING;
            default -> ROUND_DOWN;
        };
        Operand rounded = drop <= 0 ? a : binaryImm(Opcode.ROUND_I, a, a, mode, drop, a.type());
        return toResultType(rounded, call.type());
    }

    /** TRUNC's digits: its second argument, an integer constant, or 0 without one. */
    private static int constantDigits(Call call) {
        if (call.args().size() < 2) {
            return 0;
        }
        if (!(call.arg(1) instanceof Literal literal && literal.value() instanceof Long value && (int) (long) value == value)) {
            throw new Unsupported(call.op() + " to digits that are not an integer constant runs on the CPU");
        }
        return (int) (long) value;
    }

    /** The first argument of a DOUBLE function, as a DOUBLE (as the CPU reads it). */
    private Operand toDouble(Call call) {
        Operand a = compile(call.arg(0));
        requireNumeric(call, a);
        return coerce(a, DataType.DOUBLE);
    }

    /** OP_MATH_F's function number (vm.cuh MATH_*). */
    private static int mathFunction(Op op) {
        return MATH_FUNCTIONS.indexOf(op);
    }

    /** An exact math function's value (at the argument's scale) as {@code type}: rescaled and range-checked, or converted to DOUBLE. */
    private Operand toResultType(Operand a, DataType type) {
        if (type.kind() == TypeKind.DOUBLE) {
            return cast(checkFits(a), type);
        }
        Operand r = rescale(a, Decimals.scaleOf(type));
        return checkFits(new Operand(r.slot(), type, r.nullable(), null));
    }

    // ---- conversions ----

    /** {@code a} unchanged when it already has {@code type}'s physical form, else cast (as the CPU's coerce). */
    private Operand coerce(Operand a, DataType type) {
        TypeKind from = a.type().kind();
        TypeKind to = type.kind();
        boolean sameForm = from.isString() && to.isString()
                || from == to && (to != TypeKind.DECIMAL || a.type().scale() == type.scale() && a.isWide() == type.isWideDecimal())
                || from == TypeKind.INTEGER && to == TypeKind.BIGINT;
        return sameForm ? new Operand(a.slot(), type, a.nullable(), a.dictionary()) : cast(a, type);
    }

    private Operand cast(Operand a, DataType to) {
        TypeKind from = a.type().kind();
        if (from.isString() || to.kind().isString()) {
            throw new Unsupported("CAST between " + a.type() + " and " + to + " runs on the CPU");
        }
        if (to.kind() == TypeKind.DOUBLE) {
            Operand d = toDouble(a);
            return d.type().isReal() && to.isReal() ? new Operand(d.slot(), to, d.nullable(), null) : declared(d, to, true);
        }
        if (from == TypeKind.DOUBLE && to.isWideDecimal()) {
            // The CPU rounds the double's shortest decimal form (BigDecimal.valueOf), which the device does not compute.
            throw new Unsupported("CAST from " + a.type().sqlName() + " to " + to.sqlName() + " runs on the CPU");
        }
        if (from == TypeKind.DOUBLE && to.kind().isExactNumeric()) {
            return checkDeclared(unary(Opcode.F2DEC, Decimals.scaleOf(to), a, to, null));
        }
        if (from.isExactNumeric() && to.kind().isExactNumeric() && (a.isWide() || to.isWideDecimal())) {
            // As the CPU's WideDecimalCastEvaluator: rescaled HALF_UP on 128 bits, then checked against the target.
            return fitWide(rescaleWide(widen(a), Decimals.scaleOf(to)), to);
        }
        if (from.isExactNumeric() && to.kind().isExactNumeric()) {
            Operand r = rescale(new Operand(a.slot(), withScale(to, a.scale()), a.nullable(), null), Decimals.scaleOf(to));
            return checkDeclared(new Operand(r.slot(), to, r.nullable(), null));
        }
        if (from == to.kind()) {
            return new Operand(a.slot(), to, a.nullable(), null);
        }
        if (from == TypeKind.DATE && to.kind() == TypeKind.TIMESTAMP) {
            return unary(Opcode.DATE_TO_TS, 0, a, to, null);
        }
        if (from == TypeKind.TIMESTAMP && to.kind() == TypeKind.DATE) {
            return unary(Opcode.TS_TO_DATE, 0, a, to, null);
        }
        throw new Unsupported("CAST from " + a.type() + " to " + to + " runs on the CPU");
    }

    private Operand toDouble(Operand a) {
        if (a.isDouble()) {
            return a;
        }
        if (!a.type().kind().isExactNumeric()) {
            throw new Unsupported(a.type() + " as DOUBLE runs on the CPU");
        }
        return unary(a.isWide() ? Opcode.W2F : Opcode.I2F, a.scale(), a, DataType.DOUBLE, null);
    }

    /** A wide DECIMAL of 38 digits at {@code scale}: the type a 128-bit intermediate is tracked in. */
    private static DataType wideType(int scale) {
        return DataType.decimal(DataType.MAX_WIDE_DECIMAL_PRECISION, scale);
    }

    /** An exact value as a 128-bit one (a 64-bit value sign-extended, in place), at its scale. */
    private Operand widen(Operand a) {
        if (a.isWide()) {
            return a;
        }
        if (!a.type().kind().isExactNumeric()) {
            throw new Unsupported(a.type().sqlName() + " as a wide DECIMAL runs on the CPU");
        }
        return unary(Opcode.WIDEN, 0, a, wideType(a.scale()), null);
    }

    /** A 128-bit value at another scale: multiplied up (22003 past 128 bits) or divided down HALF_UP, as Int128.rescale. */
    private Operand rescaleWide(Operand a, int toScale) {
        int from = a.scale();
        if (toScale == from) {
            return a;
        }
        Opcode op = toScale > from ? Opcode.SCALE_UP_W : Opcode.RESCALE_W;
        return unary(op, Math.abs(toScale - from), a, wideType(toScale), null);
    }

    /**
     * A 128-bit value at {@code type}'s scale as {@code type}, as the CPU's WideValues.checkFits:
     * a wide DECIMAL checked against its precision; otherwise 64 bits (22003 beyond) checked as
     * {@link #checkDeclared}.
     */
    private Operand fitWide(Operand a, DataType type) {
        if (type.isWideDecimal()) {
            emit(Opcode.CHECK_PRECISION_W, a.slot(), a.slot(), 0, 0, type.precision());
            return new Operand(a.slot(), type, a.nullable(), null);
        }
        return checkDeclared(unary(Opcode.NARROW, 0, a, type, null));
    }

    private Operand scaleUp(Operand a, int digits) {
        if (digits == 0) {
            return a;
        }
        return unary(Opcode.SCALE_UP, digits, a, withScale(a.type(), a.scale() + digits), null);
    }

    /** Changes the scale, rounding HALF_UP when digits are dropped. */
    private Operand rescale(Operand a, int toScale) {
        int from = a.scale();
        if (toScale >= from) {
            return scaleUp(a, toScale - from);
        }
        if (from - toScale > Pow10.MAX_EXPONENT) {
            throw new Unsupported("rescaling by more than " + Pow10.MAX_EXPONENT + " digits runs on the CPU");
        }
        return unary(Opcode.RESCALE, from - toScale, a, withScale(a.type(), toScale), null);
    }

    /** As {@link Decimals#checkFits}: INTEGER results must fit 32 bits, SMALLINT 16 and TINYINT 8. */
    private Operand checkFits(Operand a) {
        if (a.type().kind() == TypeKind.INTEGER) {
            emit(Opcode.CHECK_BITS, a.slot(), a.slot(), 0, 0, a.type().isNarrowInteger() ? a.type().precision() : Integer.SIZE);
        }
        return a;
    }

    /**
     * A computed DOUBLE-kind value as {@code type} holds it: a REAL rounded to float32, as
     * {@link DataType#roundToDeclared} (an infinity past its range), or with {@code checked} as
     * {@link DataType#convertToDeclared} (22003 there: a CAST); a DOUBLE as it is.
     */
    private Operand declared(Operand a, DataType type, boolean checked) {
        return type.isReal() ? unary(Opcode.ROUND_FLOAT, checked ? 1 : 0, a, type, null) : new Operand(a.slot(), type, a.nullable(), null);
    }

    /** As {@link Decimals#checkDeclared}: DECIMAL precision, INTEGER range. */
    private Operand checkDeclared(Operand a) {
        if (a.type().kind() == TypeKind.DECIMAL) {
            emit(Opcode.CHECK_PRECISION, a.slot(), a.slot(), 0, 0, a.type().precision());
        }
        return checkFits(a);
    }

    /** The exact type to track an intermediate of {@code scale} in (DECIMAL when scaled). */
    private static DataType withScale(DataType type, int scale) {
        if (scale == 0 && type.kind() != TypeKind.DECIMAL) {
            return type.kind().isExactNumeric() ? type : DataType.BIGINT;
        }
        return DataType.decimal(DataType.MAX_DECIMAL_PRECISION, scale);
    }

    // ---- lazy evaluation (vm.cuh GUARD: which rows an operand runs for) ----

    private static final int GUARD_TRUE = 0;
    private static final int GUARD_NOT_FALSE = 1;
    private static final int GUARD_NOT_TRUE = 2;
    private static final int GUARD_NULL = 3;

    /** Claims {@code levels} guard levels for a lazy operator's operands and returns the first; operands nested in them use higher ones. */
    private int enterGuards(int levels) {
        int first = guardDepth + 1;
        guardDepth += levels;
        return first;
    }

    /** Releases the levels of {@link #enterGuards}, readmitting the rows excluded at {@code level} when {@code guarded}. */
    private void exitGuards(int level, int levels, boolean guarded) {
        if (guarded) {
            emit(Opcode.UNGUARD, 0, 0, 0, level, 0);
        }
        guardDepth -= levels;
    }

    /**
     * When the instructions from {@code mark} on (one operand) can raise an error, inserts before
     * them a guard excluding, at {@code level}, the rows where slot {@code condition} fails test
     * {@code kind}; returns whether it did. An operand that cannot raise runs for every row
     * unguarded: its values are not chosen for the rows SQL would not evaluate it for.
     */
    private boolean guard(int mark, int level, int condition, int kind) {
        if (!canRaise(mark)) {
            return false;
        }
        code.add(mark, new int[] {Opcode.GUARD.code(), 0, condition, 0, level, kind});
        return true;
    }

    /** Whether an instruction from {@code mark} on can raise an error. */
    private boolean canRaise(int mark) {
        for (int[] instr : code.subList(mark, code.size())) {
            Opcode op = Opcode.of(instr[0]);
            if (op.raises()) {
                return true;
            }
            // The table position is in imm, for LOOKUP_I64 in c (vm.cuh).
            if (op.isLookup() && failingTables.contains(op == Opcode.LOOKUP_I64 ? instr[4] : instr[5])) {
                return true;
            }
        }
        return false;
    }

    // ---- emission ----

    private Operand unary(Opcode op, int imm, Operand a, DataType type, StringDictionary dict) {
        emit(op, a.slot(), a.slot(), 0, 0, imm);
        return new Operand(a.slot(), type, a.nullable(), dict);
    }

    private Operand binary(Opcode op, Operand a, Operand b, DataType type) {
        return binaryImm(op, a, b, 0, 0, type);
    }

    /** Result in a's slot (the interpreter reads operands before writing); b's slot is freed. */
    private Operand binaryImm(Opcode op, Operand a, Operand b, int c, int imm, DataType type) {
        emit(op, a.slot(), a.slot(), b.slot(), c, imm);
        release(a.slot());
        boolean nullable = switch (op) {
            case DISTINCT_I, DISTINCT_F, DISTINCT_SCALED, DISTINCT_W -> false;
            default -> a.nullable() || b.nullable();
        };
        return new Operand(a.slot(), type, nullable, null);
    }

    private void emit(Opcode op, int dst, int a, int b, int c, int imm) {
        code.add(new int[] {op.code(), dst, a, b, c, imm});
    }

    private int constant(long bits) {
        return addConstants(bits);
    }

    private int newSlot() {
        if (nextSlot == MAX_SLOTS) {
            throw new Unsupported("expression too deep for the GPU interpreter (" + MAX_SLOTS + " registers)");
        }
        return nextSlot++;
    }

    /** Frees every slot above {@code slot}: operands are evaluated in slot order, so they form a stack. */
    private void release(int slot) {
        nextSlot = slot + 1;
    }

    private static StringDictionary dictOrEmpty(StringDictionary d) {
        return d == null ? StringDictionary.EMPTY : d;
    }

    private static void requireNumeric(Call call, Operand... args) {
        for (Operand a : args) {
            if (!a.type().kind().isNumeric()) {
                throw new Unsupported(call.op() + " of " + a.type() + " runs on the CPU");
            }
        }
    }

}
