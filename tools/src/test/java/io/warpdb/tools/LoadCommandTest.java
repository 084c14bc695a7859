package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code warpdb load} into a database directory, and COPY through JDBC with its SQLSTATEs. */
class LoadCommandTest {
    @TempDir
    Path dir;

    @Test
    void loadsIntoADirectoryAllOrNothing() throws Exception {
        Path csv = Files.writeString(dir.resolve("t.csv"), "id,name\n1,a\n2,b\n");
        Path data = dir.resolve("db");
        CommandLine cli = WarpCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        assertEquals(0, cli.execute("load", "--data", data.toString(), "--create", "t", csv.toString()));
        Path bad = Files.writeString(dir.resolve("bad.csv"), "id,name\n3,c\nx,d\n");
        assertEquals(1, cli.execute("load", "--data", data.toString(), "t", bad.toString()));
        assertTrue(err.toString().contains(bad + ":3:1: expected an INTEGER, found 'x' (column id)"), err.toString());
        try (Database db = Database.open(data, StorageOptions.defaults())) {
            assertEquals(2, db.catalog().table("t").orElseThrow().rowCount());
        }
    }

    @Test
    void copyThroughJdbcReportsSqlStates() throws Exception {
        Path csv = Files.writeString(dir.resolve("t.csv"), "1|x|\n2|y|\n");
        Path tbl = Files.move(csv, dir.resolve("t.tbl"));
        try (Connection c = DriverManager.getConnection("jdbc:warpdb:mem:copytest"); Statement s = c.createStatement()) {
            s.execute("create table t (k integer, v varchar(5))");
            assertEquals(2, s.executeUpdate(io.warpdb.ingest.LoadOptions.copyStatement("t", java.util.List.of(tbl), java.util.Map.of())));
            SQLException missing = assertThrows(SQLException.class, () -> s.executeUpdate("COPY t FROM '" + dir.resolve("no.csv") + "'"));
            assertEquals("58P01", missing.getSQLState());
            SQLException unknown = assertThrows(SQLException.class, () -> s.executeUpdate("COPY nope FROM '" + tbl + "'"));
            assertEquals("42P01", unknown.getSQLState());
            Files.writeString(tbl, "3|z|\n4|toolong|\n");
            SQLException tooLong = assertThrows(SQLException.class, () -> s.executeUpdate("COPY t FROM '" + tbl + "'"));
            assertEquals("22001", tooLong.getSQLState());
            assertTrue(tooLong.getMessage().contains(tbl + ":2:3: expected a VARCHAR(5) of at most 5 characters, found 'toolong'"),
                    tooLong.getMessage());
            try (ResultSet r = s.executeQuery("select count(*) from t")) {
                r.next();
                assertEquals(2, r.getLong(1));
            }
        }
    }
}
