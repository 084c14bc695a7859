package io.warpdb.sql;

import java.util.List;

/**
 * The functions SQL can call, as JDBC's {@code getFunctions} lists them for tools: the name, whether
 * it aggregates, what it does, and an example call (which a test runs, so the list cannot promise
 * a function the translator lacks).
 */
public final class SqlFunctions {
    /** One function; {@code example} is an expression valid in {@code SELECT <example>}. */
    public record Function(String name, boolean aggregate, String remarks, String example) {
    }

    public static final List<Function> ALL = List.of(
            new Function("ABS", false, "absolute value of a number", "ABS(-2.5)"),
            new Function("APPROX_COUNT_DISTINCT", true, "estimated number of distinct non-NULL values (HyperLogLog: exact up to 1024, beyond a standard error of 0.8%)",
                    "APPROX_COUNT_DISTINCT(x) FROM (VALUES (1), (1)) AS t(x)"),
            new Function("AVG", true, "average of the non-NULL values", "AVG(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("CAST", false, "conversion to another type: CAST(x AS type)", "CAST('12' AS INTEGER)"),
            new Function("CEIL", false, "smallest integer not below a number", "CEIL(1.2)"),
            new Function("CHARACTER_LENGTH", false, "number of characters of a string", "CHARACTER_LENGTH('abc')"),
            new Function("CHAR_LENGTH", false, "number of characters of a string", "CHAR_LENGTH('abc')"),
            new Function("COALESCE", false, "first argument that is not NULL", "COALESCE(NULL, 1)"),
            new Function("CONCAT", false, "the arguments as text, one after another; NULL counts as ''", "CONCAT('a', NULL, 1)"),
            new Function("COUNT", true, "number of rows (COUNT(*)) or of non-NULL values", "COUNT(*) FROM (VALUES (1)) AS t(x)"),
            new Function("DATEDIFF", false, "days from a date to another: DATEDIFF('day', start, end)",
                    "DATEDIFF('day', DATE '2024-01-01', DATE '2024-03-01')"),
            new Function("DATE_ADD", false, "a date plus a number of days", "DATE_ADD(DATE '2024-01-31', 1)"),
            new Function("DATE_TRUNC", false, "a timestamp (or date) rounded down to a unit: DATE_TRUNC('month', ts), as a TIMESTAMP",
                    "DATE_TRUNC('hour', TIMESTAMP '2024-01-02 03:04:05')"),
            new Function("EXP", false, "e raised to a number", "EXP(1)"),
            new Function("EXTRACT", false,
                    "YEAR, QUARTER, MONTH, DAY, DOW or DOY of a date or timestamp; HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND or EPOCH of a timestamp",
                    "EXTRACT(YEAR FROM DATE '2024-05-06')"),
            new Function("FLOOR", false, "largest integer not above a number", "FLOOR(1.8)"),
            new Function("LEFT", false, "the first n characters of a string (all but the last -n when negative)",
                    "LEFT('hello', 2)"),
            new Function("LENGTH", false, "number of characters of a string", "LENGTH('abc')"),
            new Function("LN", false, "natural logarithm", "LN(10)"),
            new Function("LOG10", false, "base-10 logarithm", "LOG10(1000)"),
            new Function("LOWER", false, "a string in lower case", "LOWER('AbC')"),
            new Function("LPAD", false, "a string padded on the left to a length (or cut to it)", "LPAD('7', 3, '0')"),
            new Function("LTRIM", false, "a string without leading spaces (or the given characters)", "LTRIM('  a')"),
            new Function("MAX", true, "largest non-NULL value", "MAX(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("MIN", true, "smallest non-NULL value", "MIN(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("MOD", false, "remainder of an integer division", "MOD(7, 3)"),
            new Function("NULLIF", false, "NULL when both arguments are equal, else the first", "NULLIF(1, 1)"),
            new Function("POSITION", false, "1-based position of a substring, 0 when absent: POSITION(sub IN s)",
                    "POSITION('l' IN 'hello')"),
            new Function("POWER", false, "a number raised to a power, as DOUBLE", "POWER(2, 10)"),
            new Function("REGEXP_MATCHES", false, "whether a regular expression matches anywhere in a string",
                    "REGEXP_MATCHES('abc', 'b.')"),
            new Function("REGEXP_REPLACE", false, "the first match (every match with option 'g') of a regular expression replaced",
                    "REGEXP_REPLACE('aaa', 'a', 'b', 'g')"),
            new Function("REPLACE", false, "every occurrence of a string replaced by another", "REPLACE('a-b-c', '-', '+')"),
            new Function("RIGHT", false, "the last n characters of a string (all but the first -n when negative)",
                    "RIGHT('hello', 2)"),
            new Function("ROUND", false, "a number rounded half up to a number of decimals", "ROUND(2.345, 2)"),
            new Function("RPAD", false, "a string padded on the right to a length (or cut to it)", "RPAD('7', 3, '0')"),
            new Function("RTRIM", false, "a string without trailing spaces (or the given characters)", "RTRIM('a  ')"),
            new Function("SIGN", false, "-1, 0 or 1 as a number is negative, zero or positive", "SIGN(-2.5)"),
            new Function("SPLIT_PART", false, "the n-th part of a string split at a delimiter (negative n from the end)",
                    "SPLIT_PART('a,b,c', ',', 2)"),
            new Function("SQRT", false, "square root, as DOUBLE", "SQRT(2)"),
            new Function("STARTS_WITH", false, "whether a string starts with another", "STARTS_WITH('hello', 'he')"),
            new Function("STDDEV", true, "sample standard deviation (STDDEV_SAMP)", "STDDEV(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("STDDEV_POP", true, "population standard deviation", "STDDEV_POP(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("STDDEV_SAMP", true, "sample standard deviation", "STDDEV_SAMP(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("STRPOS", false, "1-based position of a substring, 0 when absent", "STRPOS('hello', 'l')"),
            new Function("SUBSTRING", false, "part of a string: SUBSTRING(s FROM start FOR length)", "SUBSTRING('hello', 2, 3)"),
            new Function("SUM", true, "sum of the non-NULL values", "SUM(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("TRIM", false, "a string without leading and/or trailing characters", "TRIM('  a  ')"),
            new Function("TRUNC", false, "a number truncated toward zero to a number of decimals", "TRUNC(2.567, 2)"),
            new Function("UPPER", false, "a string in upper case", "UPPER('abc')"),
            new Function("VARIANCE", true, "sample variance (VAR_SAMP)", "VARIANCE(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("VAR_POP", true, "population variance", "VAR_POP(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("VAR_SAMP", true, "sample variance", "VAR_SAMP(x) FROM (VALUES (1), (2)) AS t(x)"));

    private SqlFunctions() {
    }
}
