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
            new Function("AVG", true, "average of the non-NULL values", "AVG(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("CAST", false, "conversion to another type: CAST(x AS type)", "CAST('12' AS INTEGER)"),
            new Function("CEIL", false, "smallest integer not below a number", "CEIL(1.2)"),
            new Function("CHARACTER_LENGTH", false, "number of characters of a string", "CHARACTER_LENGTH('abc')"),
            new Function("CHAR_LENGTH", false, "number of characters of a string", "CHAR_LENGTH('abc')"),
            new Function("COALESCE", false, "first argument that is not NULL", "COALESCE(NULL, 1)"),
            new Function("COUNT", true, "number of rows (COUNT(*)) or of non-NULL values", "COUNT(*) FROM (VALUES (1)) AS t(x)"),
            new Function("EXTRACT", false, "YEAR, QUARTER, MONTH, DAY, DOW or DOY of a date",
                    "EXTRACT(YEAR FROM DATE '2024-05-06')"),
            new Function("FLOOR", false, "largest integer not above a number", "FLOOR(1.8)"),
            new Function("LOWER", false, "a string in lower case", "LOWER('AbC')"),
            new Function("MAX", true, "largest non-NULL value", "MAX(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("MIN", true, "smallest non-NULL value", "MIN(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("MOD", false, "remainder of an integer division", "MOD(7, 3)"),
            new Function("NULLIF", false, "NULL when both arguments are equal, else the first", "NULLIF(1, 1)"),
            new Function("ROUND", false, "a number rounded half up to a number of decimals", "ROUND(2.345, 2)"),
            new Function("SUBSTRING", false, "part of a string: SUBSTRING(s FROM start FOR length)", "SUBSTRING('hello', 2, 3)"),
            new Function("SUM", true, "sum of the non-NULL values", "SUM(x) FROM (VALUES (1), (2)) AS t(x)"),
            new Function("TRIM", false, "a string without leading and/or trailing characters", "TRIM('  a  ')"),
            new Function("UPPER", false, "a string in upper case", "UPPER('abc')"));

    private SqlFunctions() {
    }
}
