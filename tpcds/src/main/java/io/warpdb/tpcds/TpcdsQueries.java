package io.warpdb.tpcds;

import io.warpdb.tpch.OrderByClause;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The 99 TPC-DS queries, read from {@code queries/qNN.sql} next to this class: DuckDB's texts
 * with the qualification parameters (see {@code queries/README.md} for their source and the one
 * change). The statements' closing semicolons are dropped.
 */
public final class TpcdsQueries {
    public static final int COUNT = 99;

    private static final List<TpcdsQuery> ALL = IntStream.rangeClosed(1, COUNT).mapToObj(TpcdsQueries::read).toList();

    private TpcdsQueries() {
    }

    /** All 99, in order. */
    public static List<TpcdsQuery> all() {
        return ALL;
    }

    /** The queries of these numbers, in the order given; all 99 when {@code numbers} is empty. */
    public static List<TpcdsQuery> select(List<Integer> numbers) {
        return numbers.isEmpty() ? ALL : numbers.stream().map(TpcdsQueries::get).toList();
    }

    /** Query {@code number} (1..99). */
    public static TpcdsQuery get(int number) {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("TPC-DS has queries 1 to " + COUNT + ", not " + number);
        }
        return ALL.get(number - 1);
    }

    /** The tables that at least one of the queries reads, in {@link TpcdsSchema#tables()} order: what a run must load. */
    public static List<TpcdsSchema.Table> tablesRead(List<TpcdsQuery> queries) {
        return TpcdsSchema.tables().stream().filter(t -> queries.stream().anyMatch(q -> q.tables().contains(t))).toList();
    }

    private static TpcdsQuery read(int number) {
        String resource = String.format("queries/q%02d.sql", number);
        try (InputStream in = TpcdsQueries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip().replaceFirst(";$", "").strip();
            return new TpcdsQuery(number, sql, OrderByClause.of(sql), tables(sql));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The TPC-DS tables the statement names: a table's name as a whole word (columns carry prefixes such as ss_). */
    static List<TpcdsSchema.Table> tables(String sql) {
        return TpcdsSchema.tables().stream()
                .filter(t -> Pattern.compile("(?i)\\b" + t.name() + "\\b").matcher(sql).find())
                .toList();
    }
}
