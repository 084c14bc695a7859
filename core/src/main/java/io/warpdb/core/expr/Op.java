package io.warpdb.core.expr;

/**
 * Scalar operators of {@link Call}. The argument layout of each is given here; every executor
 * implements them with SQL semantics (NULL in, NULL out, unless stated otherwise).
 */
public enum Op {
    // arithmetic: (a, b) of the same kind family; DECIMAL results are rescaled to the call's scale
    ADD, SUBTRACT, MULTIPLY,
    /** Integer division truncates toward zero; division by zero raises SQLSTATE 22012. */
    DIVIDE,
    MOD,
    NEGATE, ABS, FLOOR, CEIL,
    /** (x, digits): digits an INTEGER literal; halves round away from zero. */
    ROUND,
    /** (x, digits): digits an INTEGER literal; rounds toward zero. */
    TRUNC,
    /** (x): -1, 0 or 1 as INTEGER. */
    SIGN,
    /** (x) and (x, y) in DOUBLE, as IEEE 754 gives them: a negative square root or logarithm is NaN, ln(0) -Infinity. */
    SQRT, EXP, LN, LOG10, POWER,
    // comparison: (a, b); strings compare by value
    EQ, NE, LT, LE, GT, GE,
    /** NULL-safe: never NULL. */
    IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM,
    // boolean, three-valued
    AND, OR, NOT,
    IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE,
    /** (when1, then1, when2, then2, ..., else): else always present (NULL literal when absent in SQL). */
    CASE,
    /** (a, b, ...): first non-NULL argument. */
    COALESCE,
    /** (x): converts x to the call's type; bad text gives 22P02, overflow 22003. */
    CAST,
    /** (x, v1, v2, ...): x equals one of the literals v_i. */
    IN,
    /** (string, pattern[, escape]): SQL LIKE with % and _. */
    LIKE,
    /** (a, b): string concatenation ||. */
    CONCAT,
    /** (string, start[, length]): 1-based, SQL semantics. */
    SUBSTRING,
    UPPER, LOWER,
    /** (string, characters): removes leading and trailing characters found in {@code characters}. */
    TRIM,
    /** (string, characters): removes leading characters found in {@code characters}. */
    LTRIM,
    /** (string, characters): removes trailing characters found in {@code characters}. */
    RTRIM,
    CHAR_LENGTH,
    /** (string, from, to): every occurrence of {@code from} replaced by {@code to}. */
    REPLACE,
    /** (string, substring): 1-based position of the first occurrence, 0 when absent. */
    STRPOS,
    /** (string, n): the first n characters; a negative n drops the last -n. */
    LEFT,
    /** (string, n): the last n characters; a negative n drops the first -n. */
    RIGHT,
    /** (string, length, fill): padded on the left (LPAD) or right (RPAD) to length, or cut to it; 22023 when padding with ''. */
    LPAD, RPAD,
    /** (string, delimiter, index): the index-th part (1-based; negative counts from the end), '' when out of range. */
    SPLIT_PART,
    /** (string, prefix): whether the string starts with the prefix. */
    STARTS_WITH,
    /** (string, pattern): whether the regular expression matches anywhere in the string; bad patterns give 2201B. */
    REGEXP_MATCHES,
    /** (string, pattern, replacement, options): options 'g' replaces every match, else the first; {@code \1} names groups. */
    REGEXP_REPLACE,
    /** (date or timestamp): calendar parts as BIGINT. */
    EXTRACT_YEAR, EXTRACT_QUARTER, EXTRACT_MONTH, EXTRACT_DAY, EXTRACT_DOW, EXTRACT_DOY,
    /**
     * (timestamp or date): time parts as BIGINT; SECOND whole seconds, MILLISECOND and MICROSECOND
     * the seconds within the minute with their fraction in those units, EPOCH whole seconds since 1970.
     */
    EXTRACT_HOUR, EXTRACT_MINUTE, EXTRACT_SECOND, EXTRACT_MILLISECOND, EXTRACT_MICROSECOND, EXTRACT_EPOCH,
    /** (unit, timestamp or date): a TIMESTAMP rounded down to the start of the unit, named by a string literal. */
    DATE_TRUNC,
    /** (timestamp, microseconds): timestamp plus an amount of time (negative to subtract). */
    TIMESTAMP_ADD_MICROS,
    /** (timestamp, months): timestamp plus months, the day clamped to the end of the month. */
    TIMESTAMP_ADD_MONTHS,
    /** (date, days): date plus a number of days (negative to subtract). */
    DATE_ADD_DAYS,
    /** (date, months): date plus months, clamped to the end of the month. */
    DATE_ADD_MONTHS,
    /** (start, end): the number of days from start to end, as BIGINT. */
    DATE_DIFF_DAYS;

    /**
     * Whether a call of this operator can raise an error for some row (division by zero, overflow,
     * a failing conversion, a negative substring length, a date out of range).
     */
    public boolean mayRaise() {
        return switch (this) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MOD, NEGATE, ABS, FLOOR, CEIL, ROUND, TRUNC, CAST, SUBSTRING, LPAD, RPAD, REGEXP_MATCHES,
                    REGEXP_REPLACE, DATE_ADD_DAYS, DATE_ADD_MONTHS, DATE_TRUNC, TIMESTAMP_ADD_MICROS, TIMESTAMP_ADD_MONTHS -> true;
            default -> false;
        };
    }

    /** The comparison that holds for {@code y op' x} exactly when this one holds for {@code x op y}: LT for GT, ...; itself for any other. */
    public Op mirrored() {
        return switch (this) {
            case LT -> GT;
            case LE -> GE;
            case GT -> LT;
            case GE -> LE;
            default -> this;
        };
    }
}
