package io.warpdb.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The 22 TPC-H queries, read from {@code queries/qNN.sql} next to this class. They are written
 * in SQL that WarpDB and DuckDB both accept: Q15's view is a WITH clause so that each query is
 * one statement, and Q11 quotes its alias {@code "value"}.
 */
public final class TpchQueries {
    public static final int COUNT = 22;

    private static final Pattern ORDER_BY = Pattern.compile("(?i)\\border\\s+by\\b");
    private static final Pattern LIMIT = Pattern.compile("(?i)\\blimit\\b");
    private static final Pattern DIRECTION = Pattern.compile("(?i)\\s+(asc|desc)(\\s+nulls\\s+(first|last))?$|\\s+nulls\\s+(first|last)$");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|\"[^\"]+\"");

    private static final List<TpchQuery> ALL = IntStream.rangeClosed(1, COUNT).mapToObj(TpchQueries::read).toList();

    private TpchQueries() {
    }

    /** All 22, in order. */
    public static List<TpchQuery> all() {
        return ALL;
    }

    /** The queries of these numbers, in the order given; all 22 when {@code numbers} is empty. */
    public static List<TpchQuery> select(List<Integer> numbers) {
        return numbers.isEmpty() ? ALL : numbers.stream().map(TpchQueries::get).toList();
    }

    /** The tables that at least one of the queries reads, in {@link TpchSchema#tables()} order: what a run must load. */
    public static List<TpchSchema.Table> tablesRead(List<TpchQuery> queries) {
        return TpchSchema.tables().stream().filter(t -> queries.stream().anyMatch(q -> q.tables().contains(t))).toList();
    }

    /** Query {@code number} (1..22). */
    public static TpchQuery get(int number) {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("TPC-H has queries 1 to " + COUNT + ", not " + number);
        }
        return ALL.get(number - 1);
    }

    private static TpchQuery read(int number) {
        String resource = String.format("queries/q%02d.sql", number);
        try (InputStream in = TpchQueries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            return new TpchQuery(number, sql, orderBy(sql), tables(sql));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /**
     * The column names of the statement's top-level ORDER BY: the last ORDER BY outside
     * parentheses, string literals and line comments, up to LIMIT. Each item must be a result
     * column name, as in all TPC-H queries.
     */
    static List<String> orderBy(String sql) {
        String text = blankLiteralsAndComments(sql);
        int clause = -1;
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (depth == 0 && ORDER_BY.matcher(text).region(i, text.length()).lookingAt()
                    && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
                clause = i;
            }
        }
        if (clause < 0) {
            return List.of();
        }
        Matcher by = ORDER_BY.matcher(text).region(clause, text.length());
        by.lookingAt();
        Matcher limit = LIMIT.matcher(text).region(by.end(), text.length());
        String items = text.substring(by.end(), limit.find() ? limit.start() : text.length());
        List<String> names = new ArrayList<>();
        for (String item : items.split(",")) {
            String name = DIRECTION.matcher(item.strip()).replaceFirst("");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("ORDER BY item '" + item.strip() + "' is not a result column name");
            }
            names.add(name.startsWith("\"") ? name.substring(1, name.length() - 1) : name);
        }
        return names;
    }

    /**
     * The TPC-H tables the statement names outside literals and comments. Column names carry a
     * table prefix (l_, o_, ...), so a table's name as a whole word is a reference to the table.
     */
    static List<TpchSchema.Table> tables(String sql) {
        String text = blankLiteralsAndComments(sql);
        return TpchSchema.tables().stream()
                .filter(t -> Pattern.compile("(?i)\\b" + t.name() + "\\b").matcher(text).find())
                .toList();
    }

    /** The text with the inside of '...' literals and -- comments replaced by spaces, offsets kept. */
    private static String blankLiteralsAndComments(String sql) {
        StringBuilder s = new StringBuilder(sql);
        boolean literal = false;
        boolean comment = false;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (comment) {
                comment = ch != '\n';
                s.setCharAt(i, ' ');
            } else if (literal) {
                literal = ch != '\'';
                s.setCharAt(i, ' ');
            } else if (ch == '\'') {
                literal = true;
                s.setCharAt(i, ' ');
            } else if (ch == '-' && i + 1 < s.length() && s.charAt(i + 1) == '-') {
                comment = true;
                s.setCharAt(i, ' ');
            }
        }
        return s.toString();
    }
}
