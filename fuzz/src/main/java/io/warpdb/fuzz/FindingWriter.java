package io.warpdb.fuzz;

import io.warpdb.fuzz.QueryFailure.Kind;
import io.warpdb.fuzz.QueryResult.ResultColumn;
import io.warpdb.fuzz.ast.Dialect;
import io.warpdb.fuzz.ast.Query;
import io.warpdb.fuzz.ast.SqlType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a finding as a sqllogictest file: the tables, and each query of the case with
 * DuckDB's answer as the expected rows (in WarpDB's types), under a header that says how to
 * replay it and what each engine answered.
 */
public final class FindingWriter {
    private final List<String> executors;
    private final int timeoutSeconds;

    public FindingWriter(List<String> executors, int timeoutSeconds) {
        this.executors = executors;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** Writes the finding into {@code dir}; returns the file. */
    public Path write(Path dir, Finding f) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(f.fileName());
        Files.writeString(file, text(f));
        return file;
    }

    /** The .test file's text (the case is run again on fresh engines for the expected rows). */
    public String text(Finding f) {
        TestFile test = new TestFile();
        Check check = f.check();
        test.comment("Fuzz finding: " + check.verdict().name().toLowerCase().replace('_', ' ') + " (oracle " + f.oracle()
                + ", executor " + check.executor() + ").");
        test.comment((f.caseNumber() >= 0 ? "Found by `warpdb fuzz --seed " + f.runSeed() + "` as case " + f.caseNumber() + "; r"
                : "R") + "eplay: `warpdb fuzz --case-seed " + f.caseSeed() + "`.");
        test.comment(explanation(f.oracle()));
        test.comment("As found: " + check.detail());
        f.dataset().statements().forEach(test::statement);
        if (f.fuzzCase() == null) {
            return test.text();
        }
        try (Engines engines = Engines.load(f.dataset(), executors, timeoutSeconds)) {
            List<Query> queries = f.fuzzCase().queries();
            for (int i = 0; i < queries.size(); i++) {
                Query q = queries.get(i);
                Outcome warp = engines.warpdb().get(check.executor()).run(q.render(Dialect.WARPDB));
                Outcome duck = engines.duckdb().run(q.render(Dialect.DUCKDB));
                test.comment("Minimised, query " + (i + 1) + ": WarpDB (" + check.executor() + "): " + warp.summary() + "; DuckDB: "
                        + duck.summary());
                test.record(record(q, warp, duck));
            }
        } catch (Engines.LoadException e) {
            test.comment("The minimised data no longer loads: " + e.getMessage());
        }
        return test.text();
    }

    private static String explanation(String oracle) {
        return switch (oracle) {
            case "duckdb" -> "Expected rows are DuckDB's answer to the same query on the same data.";
            case "tlp" -> "Ternary logic partitioning: query 2 is the union of query 1 restricted to p, NOT p and p IS NULL;"
                    + " both must return the same rows. Expected rows are DuckDB's.";
            case "norec" -> "NoREC: query 1 counts the rows where p holds, query 2 sums CASE WHEN p THEN 1 ELSE 0 END over all"
                    + " rows; both must give the same number. Expected rows are DuckDB's.";
            default -> "The data fails to load into WarpDB (the last statement), though DuckDB takes it.";
        };
    }

    /** A query record with DuckDB's rows; an error record where DuckDB fails with a data error. */
    static TestFile.Record record(Query q, Outcome warp, Outcome duck) {
        String sql = q.render(Dialect.WARPDB);
        if (!duck.ok()) {
            return duck.failedWith(Kind.DATA) ? new TestFile.ErrorRecord(sql, sqlStateOf(duck.failure()))
                    : new TestFile.OkRecord(sql);
        }
        List<SqlType> types = q.columnTypes();
        StringBuilder letters = new StringBuilder();
        int width = duck.result().width();
        char[] letter = new char[width];
        int[] scale = new int[width];
        boolean[] padded = new boolean[width];
        for (int c = 0; c < width; c++) {
            ResultColumn column = warp.ok() && warp.result().width() == width ? warp.result().columns().get(c) : null;
            SqlType type = c < types.size() ? types.get(c) : SqlType.VARCHAR;
            letter[c] = column != null ? letterOf(column.jdbcType()) : letterOf(type);
            scale[c] = column != null ? column.scale() : type.kind() == SqlType.Kind.DECIMAL ? type.scale() : -1;
            padded[c] = column != null ? column.isChar() : type.kind() == SqlType.Kind.CHAR;
            letters.append(letter[c]);
        }
        List<List<String>> rows = new ArrayList<>();
        for (List<Object> row : duck.result().rows()) {
            List<String> rendered = new ArrayList<>(width);
            for (int c = 0; c < width; c++) {
                rendered.add(TestFile.render(row.get(c), letter[c], scale[c], padded[c]));
            }
            rows.add(rendered);
        }
        return new TestFile.QueryRecord(sql, letters.toString(), q.totallyOrdered(), rows);
    }

    /** WarpDB's SQLSTATE for the data error DuckDB reports, where the message tells it. */
    static String sqlStateOf(QueryFailure duckError) {
        String m = duckError.message();
        if (m.contains("Division by zero")) {
            return "22012";
        }
        if (m.contains("Out of Range") || m.contains("out of range")) {
            return "22003";
        }
        if (m.contains("More than one row")) {
            return "21000";
        }
        return m.contains("Conversion Error") ? "22P02" : null;
    }

    static char letterOf(int jdbcType) {
        return switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> 'I';
            case Types.FLOAT, Types.REAL, Types.DOUBLE -> 'R';
            case Types.DECIMAL, Types.NUMERIC -> 'D';
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR -> 'T';
            case Types.BOOLEAN, Types.BIT -> 'B';
            case Types.DATE -> 'A';
            default -> '?';
        };
    }

    static char letterOf(SqlType type) {
        return switch (type.kind()) {
            case INTEGER, BIGINT -> 'I';
            case DOUBLE -> 'R';
            case DECIMAL -> 'D';
            case CHAR, VARCHAR -> 'T';
            case BOOLEAN -> 'B';
            case DATE -> 'A';
        };
    }
}
