package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Timestamps;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Calls of functions by name (UPPER, STRPOS, POWER, DATE_DIFF, ...) as WarpDB operators, their
 * arguments already translated. Most map one to one; a few are spelled with others:
 * {@code concat(a, b, ...)} is {@code a || b || ...} with NULL read as '' (DuckDB's and
 * PostgreSQL's concat), {@code POSITION(sub IN s)} is {@code STRPOS(s, sub)}, {@code LENGTH} is
 * CHAR_LENGTH, and {@code datediff('day', a, b)} the days from a to b.
 */
final class FunctionTranslator {
    private FunctionTranslator() {
    }

    /** The call of function {@code name} (as written, any case) on {@code args}, of {@code type}. */
    static Expr call(String name, List<Expr> args, DataType type) {
        String upper = name.toUpperCase(Locale.ROOT);
        switch (upper) {
            case "CONCAT":
                return concat(args, type);
            case "POSITION":
                if (args.size() > 2) {
                    throw unsupported("POSITION(... FROM start)");
                }
                return Call.of(Op.STRPOS, type, args.get(1), args.get(0));
            case "LTRIM", "RTRIM":
                // LTRIM(s) trims spaces, like TRIM(LEADING FROM s).
                return Call.of(upper.equals("LTRIM") ? Op.LTRIM : Op.RTRIM, type, args.get(0),
                        args.size() > 1 ? args.get(1) : Literal.ofString(" "));
            case "REGEXP_REPLACE":
                return Call.of(Op.REGEXP_REPLACE, type, args.get(0), args.get(1), args.get(2),
                        args.size() > 3 ? args.get(3) : Literal.ofString(""));
            case "DATEDIFF":
                return dateDiff(args, type);
            case "DATE_ADD":
                return new Call(Op.DATE_ADD_DAYS, args, type);
            case "DATE_TRUNC":
                return dateTrunc(args, type);
            default:
                return new Call(op(upper, name), args, type);
        }
    }

    private static Op op(String upper, String name) {
        switch (upper) {
            case "||": return Op.CONCAT;
            case "SUBSTRING": return Op.SUBSTRING;
            case "UPPER": return Op.UPPER;
            case "LOWER": return Op.LOWER;
            case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH": return Op.CHAR_LENGTH;
            case "REPLACE": return Op.REPLACE;
            case "STRPOS": return Op.STRPOS;
            case "LEFT": return Op.LEFT;
            case "RIGHT": return Op.RIGHT;
            case "LPAD": return Op.LPAD;
            case "RPAD": return Op.RPAD;
            case "SPLIT_PART": return Op.SPLIT_PART;
            case "STARTS_WITH": return Op.STARTS_WITH;
            case "REGEXP_MATCHES": return Op.REGEXP_MATCHES;
            case "ABS": return Op.ABS;
            case "SIGN": return Op.SIGN;
            case "ROUND": return Op.ROUND;
            case "TRUNC": return Op.TRUNC;
            case "MOD": return Op.MOD;
            case "SQRT": return Op.SQRT;
            case "EXP": return Op.EXP;
            case "LN": return Op.LN;
            case "LOG10": return Op.LOG10;
            case "POWER": return Op.POWER;
            default: throw unsupported(name);
        }
    }

    /** concat(a, b, ...): each argument as text, NULL as ''; never NULL. */
    private static Expr concat(List<Expr> args, DataType type) {
        List<Expr> texts = new ArrayList<>(args.size());
        for (Expr a : args) {
            Expr text = a.type().kind().isString() ? a : Call.of(Op.CAST, DataType.VARCHAR.withNullable(a.type().nullable()), a);
            texts.add(Call.of(Op.COALESCE, DataType.VARCHAR.withNullable(false), text, Literal.ofString("")));
        }
        Expr acc = texts.get(0);
        for (int i = 1; i < texts.size(); i++) {
            acc = Call.of(Op.CONCAT, type, acc, texts.get(i));
        }
        return acc.type().equals(type) ? acc : Call.of(Op.CAST, type, acc);
    }

    /** datediff(part, start, end) for the part 'day' (any case). */
    private static Expr dateDiff(List<Expr> args, DataType type) {
        if (!(args.get(0) instanceof Literal part) || !(part.value() instanceof String p)
                || !p.strip().equalsIgnoreCase("day")) {
            throw unsupported("datediff by " + args.get(0) + " (only 'day')");
        }
        return Call.of(Op.DATE_DIFF_DAYS, type, args.get(1), args.get(2));
    }

    /** date_trunc(unit, x): the unit a string constant that names one (checked here, 22023 otherwise). */
    private static Expr dateTrunc(List<Expr> args, DataType type) {
        if (!(args.get(0) instanceof Literal unit) || !(unit.value() instanceof String name)) {
            throw unsupported("date_trunc by a unit that is not a constant");
        }
        Timestamps.Unit.of(name);
        return Call.of(Op.DATE_TRUNC, type, Literal.ofString(name), args.get(1));
    }

    static WarpException unsupported(String what) {
        return new WarpException(SqlState.FEATURE_NOT_SUPPORTED, what + " is not supported yet");
    }
}
