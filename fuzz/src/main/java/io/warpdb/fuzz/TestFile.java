package io.warpdb.fuzz;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * A sqllogictest file as sqltest/README.md defines it: comment lines, {@code statement ok}
 * records that create and fill the tables, and {@code query} records with the expected rows
 * rendered the way the sqltest runner renders actual values (or {@code statement error} records).
 */
public final class TestFile {
    /** One record after the setup statements. */
    public sealed interface Record permits QueryRecord, ErrorRecord, OkRecord {
    }

    /**
     * {@code query <letters> nosort|rowsort} with expected rows, each value already rendered.
     * {@code ordered}: the query orders its rows totally (nosort).
     */
    public record QueryRecord(String sql, String typeLetters, boolean ordered, List<List<String>> rows) implements Record {
    }

    /** {@code statement ok}: a query without a known answer, which must at least run. */
    public record OkRecord(String sql) implements Record {
    }

    /** {@code statement error} with the SQLSTATE the statement must fail with (or null: any error). */
    public record ErrorRecord(String sql, String sqlState) implements Record {
    }

    private final List<String> header = new ArrayList<>();
    private final List<String> statements = new ArrayList<>();
    private final List<Record> records = new ArrayList<>();

    /** A comment line (without the leading #); line breaks become spaces. */
    public TestFile comment(String line) {
        header.add(line.replaceAll("[\\r\\n]+", " "));
        return this;
    }

    public TestFile statement(String sql) {
        statements.add(sql);
        return this;
    }

    public TestFile record(Record r) {
        records.add(r);
        return this;
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        header.forEach(h -> sb.append("# ").append(h).append('\n'));
        for (String s : statements) {
            sb.append("\nstatement ok\n").append(s).append('\n');
        }
        for (Record r : records) {
            sb.append('\n');
            if (r instanceof QueryRecord q) {
                sb.append("query ").append(q.typeLetters()).append(q.ordered() ? " nosort" : " rowsort").append('\n');
                sb.append(q.sql()).append("\n----\n");
                for (List<String> row : q.rows()) {
                    sb.append(String.join("\t", row)).append('\n');
                }
            } else if (r instanceof OkRecord o) {
                sb.append("statement ok\n").append(o.sql()).append('\n');
            } else if (r instanceof ErrorRecord e) {
                sb.append("statement error\n").append(e.sql()).append('\n');
                if (e.sqlState() != null) {
                    sb.append("----\n").append(e.sqlState()).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /**
     * A value as the sqltest runner renders a column of type letter {@code letter}: NULL,
     * (empty), integers as digits, DOUBLE with three decimals (half up, -0 as 0), DECIMAL with
     * {@code scale} decimals (or its own scale when {@code scale} is negative), dates as
     * YYYY-MM-DD, booleans as true/false; {@code padded} (CHAR) strings without trailing spaces.
     */
    public static String render(Object value, char letter, int scale, boolean padded) {
        if (value == null) {
            return "NULL";
        }
        switch (letter) {
            case 'I' -> {
                return ResultComparator.exact((Number) value).setScale(0, RoundingMode.DOWN).toPlainString();
            }
            case 'R' -> {
                double d = ((Number) value).doubleValue();
                if (Double.isNaN(d)) {
                    return "NaN";
                }
                if (Double.isInfinite(d)) {
                    return d > 0 ? "Infinity" : "-Infinity";
                }
                BigDecimal b = BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_UP);
                return (b.signum() == 0 ? BigDecimal.ZERO.setScale(3) : b).toPlainString();
            }
            case 'D' -> {
                BigDecimal b = ResultComparator.exact((Number) value);
                return (scale >= 0 ? b.setScale(scale, RoundingMode.HALF_UP) : b).toPlainString();
            }
            case 'B' -> {
                return value.toString();
            }
            case 'A' -> {
                return value instanceof LocalDate d ? d.toString() : value.toString();
            }
            default -> {
                String s = padded ? value.toString().stripTrailing() : value.toString();
                return s.isEmpty() ? "(empty)" : s;
            }
        }
    }
}
