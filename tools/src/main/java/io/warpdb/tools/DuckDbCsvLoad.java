package io.warpdb.tools;

import io.warpdb.ingest.CsvDialect;
import io.warpdb.ingest.LoadOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The benchmark peer of {@code warpdb load --compare-duckdb}: the same CSV files read by an
 * in-memory DuckDB's read_csv into a table, with the same dialect. A yardstick only.
 */
record DuckDbCsvLoad(long rows, double seconds) {
    static DuckDbCsvLoad run(List<Path> files, LoadOptions options) throws SQLException {
        CsvDialect d = options.dialectOf(files.get(0));
        String paths = files.stream().map(f -> "'" + f.toAbsolutePath().toString().replace("'", "''") + "'")
                .collect(Collectors.joining(", ", "[", "]"));
        String read = "read_csv(" + paths + ", delim = " + literal(d.delimiter()) + ", quote = " + literal(d.quote())
                + ", escape = " + literal(d.escape()) + ", header = " + d.header() + ", nullstr = '"
                + d.nullString().replace("'", "''") + "')";
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            long start = System.nanoTime();
            s.execute("CREATE TABLE loaded AS SELECT * FROM " + read);
            double seconds = (System.nanoTime() - start) / 1e9;
            try (ResultSet r = s.executeQuery("SELECT count(*) FROM loaded")) {
                r.next();
                return new DuckDbCsvLoad(r.getLong(1), seconds);
            }
        }
    }

    private static String literal(byte c) {
        return "'" + ((char) c == '\'' ? "''" : String.valueOf((char) c)) + "'";
    }
}
