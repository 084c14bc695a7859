package io.warpdb.sqltest;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the records of one script on one connection and collects every failing record (it
 * never stops at the first), each with file:line, the SQL, and expected versus actual.
 */
public final class SltRunner {

    /**
     * How strictly to check. {@code checkTypes}: a query's type letters must match the JDBC column
     * types. {@code checkErrors}: a statement error's SQLSTATE and message must match (off for an
     * oracle such as DuckDB, whose states differ; an error is still required).
     */
    /**
     * How to run: {@code restartBeforeQueries} closes the connection and opens a new one (through
     * the runner's {@link Database}) before every query, so that a durable database is closed
     * and reopened from disk between loading and querying.
     */
    public record Options(String target, boolean checkTypes, boolean checkErrors, int queryTimeoutSeconds,
            boolean restartBeforeQueries) {
        public Options(String target, boolean checkTypes, boolean checkErrors, int queryTimeoutSeconds) {
            this(target, checkTypes, checkErrors, queryTimeoutSeconds, false);
        }
    }

    /** Opens connections to one database. */
    @FunctionalInterface
    public interface Database {
        Connection connect() throws SQLException;
    }

    /** One failing record. */
    public record Failure(String file, int line, String sql, String message) {
        @Override
        public String toString() {
            return file + ":" + line + ": " + message + "\n  SQL: " + sql.replace("\n", "\n       ");
        }
    }

    /** The outcome of a script: records run and skipped, failures, and whether it halted. */
    public record Report(String file, String target, int run, int skipped, List<Failure> failures, boolean halted) {
        public Report {
            failures = List.copyOf(failures);
        }

        public String summary() {
            return target + " " + file + ": " + run + " records run, " + skipped + " skipped, " + failures.size() + " failed"
                    + (halted ? " (halted)" : "");
        }

        /** All failures as one message, or null when there are none. */
        public String failureMessage() {
            if (failures.isEmpty()) {
                return null;
            }
            StringBuilder sb = new StringBuilder();
            sb.append(failures.size()).append(" of ").append(run).append(" records failed in ").append(file)
                    .append(" on ").append(target).append(":\n");
            for (Failure f : failures) {
                sb.append('\n').append(f).append('\n');
            }
            return sb.toString();
        }
    }

    private final SltScript script;
    private final Database database;
    private Connection connection;
    private final Options options;
    private final List<Failure> failures = new ArrayList<>();
    private final Map<String, List<List<String>>> labels = new HashMap<>();

    private SltRunner(SltScript script, Database database, Connection connection, Options options) {
        this.script = script;
        this.database = database;
        this.connection = connection;
        this.options = options;
    }

    public static Report run(SltScript script, Connection connection, Options options) {
        return new SltRunner(script, null, connection, options).runAll();
    }

    /** Runs on connections to {@code database}; the last one is closed at the end. */
    public static Report run(SltScript script, Database database, Options options) throws SQLException {
        SltRunner runner = new SltRunner(script, database, database.connect(), options);
        try {
            return runner.runAll();
        } finally {
            runner.connection.close();
        }
    }

    private void restart() {
        try {
            connection.close();
            connection = database.connect();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reopen the database: " + e.getMessage(), e);
        }
    }

    private Report runAll() {
        int run = 0;
        int skipped = 0;
        boolean halted = false;
        for (SltRecord r : script.records()) {
            if (!r.appliesTo(options.target())) {
                skipped++;
                continue;
            }
            if (r instanceof SltRecord.Halt) {
                halted = true;
                break;
            }
            run++;
            try {
                if (r instanceof SltRecord.Statement s) {
                    runStatement(s);
                } else if (r instanceof SltRecord.Query q) {
                    if (options.restartBeforeQueries() && database != null) {
                        restart();
                    }
                    runQuery(q);
                }
            } catch (RuntimeException | Error e) {
                // A driver bug (an unchecked exception instead of an SQLException) fails the record, not the file.
                fail(r, "driver threw " + stackTrace(e));
            }
        }
        return new Report(script.name(), options.target(), run, skipped, failures, halted);
    }

    private void fail(SltRecord r, String message) {
        failures.add(new Failure(script.name(), r.line(), r.sql(), message));
    }

    private Statement newStatement() throws SQLException {
        Statement st = connection.createStatement();
        if (options.queryTimeoutSeconds() > 0) {
            try {
                st.setQueryTimeout(options.queryTimeoutSeconds());
            } catch (SQLException ignored) {
                // A driver without query timeouts: the file-level timeout still applies.
            }
        }
        return st;
    }

    private void runStatement(SltRecord.Statement s) {
        try (Statement st = newStatement()) {
            boolean isQuery = st.execute(s.sql());
            if (isQuery) {
                try (ResultSet rs = st.getResultSet()) {
                    while (rs.next()) {
                        // Drain: errors raised while producing rows count as the statement's errors.
                    }
                }
            }
        } catch (SQLException e) {
            if (!s.expectError()) {
                fail(s, "statement failed: " + describe(e));
                return;
            }
            if (!options.checkErrors()) {
                return;
            }
            String state = sqlState(e);
            if (s.expectedState() != null && !s.expectedState().equals(state)) {
                fail(s, "expected SQLSTATE " + s.expectedState() + ", got " + describe(e));
            } else if (s.expectedMessage() != null
                    && !messages(e).toLowerCase(Locale.ROOT).contains(s.expectedMessage().toLowerCase(Locale.ROOT))) {
                fail(s, "expected an error message containing '" + s.expectedMessage() + "', got " + describe(e));
            }
            return;
        }
        if (s.expectError()) {
            fail(s, "statement succeeded, but an error was expected"
                    + (s.expectedState() != null ? " (SQLSTATE " + s.expectedState() + ")" : "")
                    + (s.expectedMessage() != null ? " containing '" + s.expectedMessage() + "'" : ""));
        }
    }

    private void runQuery(SltRecord.Query q) {
        List<List<String>> actual = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        int columns;
        try (Statement st = newStatement()) {
            if (!st.execute(q.sql())) {
                fail(q, "query returned no result set (update count " + st.getUpdateCount() + ")");
                return;
            }
            try (ResultSet rs = st.getResultSet()) {
                ResultSetMetaData md = rs.getMetaData();
                columns = md.getColumnCount();
                if (columns != q.types().length()) {
                    problems.add("query returned " + columns + " column(s), type string '" + q.types() + "' has "
                            + q.types().length());
                } else if (options.checkTypes()) {
                    for (int c = 1; c <= columns; c++) {
                        char want = q.types().charAt(c - 1);
                        if (want == '?') {
                            continue;
                        }
                        Character got = Values.letterOf(md.getColumnType(c));
                        if (got == null || got != want) {
                            problems.add("column " + c + " (" + md.getColumnLabel(c) + ") has type " + md.getColumnTypeName(c)
                                    + " (letter " + (got == null ? "none" : got) + "), expected letter " + want);
                        }
                    }
                }
                while (rs.next()) {
                    List<String> row = new ArrayList<>(columns);
                    for (int c = 1; c <= columns; c++) {
                        row.add(Values.render(rs, md, c));
                    }
                    actual.add(row);
                }
            }
        } catch (SQLException e) {
            fail(q, "query failed: " + describe(e));
            return;
        }

        List<List<String>> expected = normalizeExpected(q, columns, problems);
        List<List<String>> got = actual;
        switch (q.sortMode()) {
            case ROWSORT -> got = Values.rowSorted(actual);
            case VALUESORT -> got = Values.valueSorted(actual);
            default -> { }
        }
        if (expected != null && !expected.equals(got)) {
            problems.add("wrong result (" + q.sortMode().name().toLowerCase(Locale.ROOT) + ")"
                    + firstDifference(expected, got)
                    + "\n  expected (" + expected.size() + " rows):" + format(expected)
                    + "\n  actual (" + got.size() + " rows):" + format(got));
        }
        if (q.label() != null) {
            List<List<String>> previous = labels.putIfAbsent(q.label(), got);
            if (previous != null && !previous.equals(got)) {
                problems.add("result differs from the earlier query labelled '" + q.label() + "'"
                        + "\n  earlier:" + format(previous) + "\n  this:" + format(got));
            }
        }
        if (!problems.isEmpty()) {
            fail(q, String.join("\n  ", problems));
        }
    }

    /**
     * The expected rows, shaped like the actual ones: sorted for rowsort/valuesort, and for a
     * multi-column query written one value per line (classic sqllogictest) regrouped into rows.
     */
    private static List<List<String>> normalizeExpected(SltRecord.Query q, int columns, List<String> problems) {
        List<List<String>> rows = q.expected();
        if (q.sortMode() == SltRecord.SortMode.VALUESORT) {
            return Values.valueSorted(rows);
        }
        boolean rowShaped = rows.stream().allMatch(r -> r.size() == columns);
        if (!rowShaped) {
            boolean oneValuePerLine = columns > 1 && rows.stream().allMatch(r -> r.size() == 1) && rows.size() % columns == 0;
            if (!oneValuePerLine) {
                for (int i = 0; i < rows.size(); i++) {
                    if (rows.get(i).size() != columns) {
                        problems.add("expected row " + (i + 1) + " has " + rows.get(i).size() + " value(s) but the query has "
                                + columns + " column(s): " + String.join("\\t", rows.get(i)) + "  (values must be separated by tabs)");
                        return null;
                    }
                }
            }
            List<List<String>> regrouped = new ArrayList<>();
            for (int i = 0; i < rows.size(); i += columns) {
                List<String> r = new ArrayList<>();
                for (int c = 0; c < columns; c++) {
                    r.add(rows.get(i + c).get(0));
                }
                regrouped.add(r);
            }
            rows = regrouped;
        }
        return q.sortMode() == SltRecord.SortMode.ROWSORT ? Values.rowSorted(rows) : rows;
    }

    private static String firstDifference(List<List<String>> expected, List<List<String>> actual) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                return ": first difference at row " + (i + 1);
            }
        }
        return expected.size() != actual.size() ? ": row count differs" : "";
    }

    private static final int MAX_SHOWN_ROWS = 60;

    private static String format(List<List<String>> rows) {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (List<String> r : rows) {
            if (shown++ == MAX_SHOWN_ROWS) {
                sb.append("\n    ... ").append(rows.size() - MAX_SHOWN_ROWS).append(" more");
                break;
            }
            sb.append("\n    ").append(String.join("\t", r));
        }
        return rows.isEmpty() ? " (none)" : sb.toString();
    }

    /**
     * The first SQLSTATE found on the exception, its chain of next exceptions, or its causes; else
     * the one its messages name as {@code (SQLSTATE xxxxx)}: WarpDB's Flight SQL errors do, because
     * the stock Flight SQL JDBC driver makes its SQLException from the message alone.
     */
    static String sqlState(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                for (SQLException n = s; n != null; n = n.getNextException()) {
                    if (n.getSQLState() != null && !n.getSQLState().isBlank()) {
                        return n.getSQLState();
                    }
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        Matcher named = NAMED_STATE.matcher(messages(e));
        return named.find() ? named.group(1) : e.getSQLState();
    }

    private static final Pattern NAMED_STATE = Pattern.compile("\\(SQLSTATE ([0-9A-Z]{5})\\)");

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null) {
                sb.append(t.getMessage()).append('\n');
            }
        }
        return sb.toString();
    }

    private static String describe(SQLException e) {
        String state = sqlState(e);
        return "SQLSTATE " + (state == null || state.isBlank() ? "(none)" : state) + ": " + e.getMessage();
    }

    private static String stackTrace(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        String[] lines = w.toString().split("\n");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(lines.length, 12); i++) {
            sb.append(i == 0 ? "" : "\n      ").append(lines[i].strip());
        }
        return sb.toString();
    }
}
