package io.warpdb.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The 22 TPC-H queries, read from {@code queries/qNN.sql} next to this class. They are written
 * in SQL that WarpDB and DuckDB both accept: Q15's view is a WITH clause so that each query is
 * one statement, and Q11 quotes its alias {@code "value"}.
 */
public final class TpchQueries {
    public static final int COUNT = 22;

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
     * The column names of the statement's top-level ORDER BY ({@link OrderByClause}). Each item
     * must be a result column name, as in all TPC-H queries.
     */
    static List<String> orderBy(String sql) {
        List<String> names = new ArrayList<>();
        for (String item : OrderByClause.of(sql).items()) {
            if (!NAME.matcher(item).matches()) {
                throw new IllegalArgumentException("ORDER BY item '" + item + "' is not a result column name");
            }
            names.add(item.startsWith("\"") ? item.substring(1, item.length() - 1) : item);
        }
        return names;
    }

    /**
     * The TPC-H tables the statement names outside literals and comments. Column names carry a
     * table prefix (l_, o_, ...), so a table's name as a whole word is a reference to the table.
     */
    static List<TpchSchema.Table> tables(String sql) {
        String text = OrderByClause.blankLiteralsAndComments(sql);
        return TpchSchema.tables().stream()
                .filter(t -> Pattern.compile("(?i)\\b" + t.name() + "\\b").matcher(text).find())
                .toList();
    }
}
