package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.ingest.CsvRange;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.Table;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A parallel COPY ({@link ParallelCopy}) on 2- and 3-node clusters in this process (over Arrow
 * Flight, and over UCX where a range's rows and errors travel too): every row of
 * a file lands once on its owner (every node for a replicated table), as one node loads the file,
 * whether the ranges' offsets fall inside a quoted field holding line ends, on a line end, or
 * after the last line (a file of fewer lines than nodes, an empty file); a bad value in the
 * second node's range fails the COPY naming its line, and leaves no row of the load on any node;
 * a file that is not uncompressed text is loaded by the coordinator.
 */
class ParallelCopyTest {
    private static final String COLUMNS = "(k BIGINT NOT NULL, s VARCHAR(300), d DECIMAL(12,2), dt DATE)";

    @TempDir
    Path dir;

    private InProcessCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Starts {@code count} nodes in this process, each on its own durable shard, rows between them over {@code transport}. */
    private void start(int count, String transport) {
        Properties settings = new Properties();
        settings.setProperty("node.timeout.seconds", "20");
        settings.setProperty("transport", transport);
        cluster = InProcessCluster.start(dir, count, settings);
    }

    /** Runs {@code sql} through node {@code n}, which coordinates it; returns its rows or its count. */
    private List<List<Object>> run(int n, String sql) {
        try (Session session = cluster.database(n).newSession(); StatementResult result = session.execute(sql, List.of())) {
            return result.isQuery() ? result.rows() : List.of(List.of(result.updateCount()));
        }
    }

    /** What one WarpDB answers for the table loaded from {@code file}: every row in key order, and its sums. */
    private static List<List<Object>> loadedAlone(Path file, String options) {
        try (Database alone = Database.inMemory("alone"); Session session = alone.newLocalSession()) {
            session.execute("CREATE TABLE t " + COLUMNS, List.of()).close();
            session.execute("COPY t FROM '" + file + "'" + options, List.of()).close();
            List<List<Object>> answer = new ArrayList<>();
            for (String query : List.of(ANSWER, SUMS)) {
                try (StatementResult result = session.execute(query, List.of())) {
                    answer.addAll(result.rows());
                }
            }
            return answer;
        }
    }

    /** What the cluster answers through node {@code n}, as {@link #loadedAlone}. */
    private List<List<Object>> answer(int n) {
        List<List<Object>> answer = new ArrayList<>(run(n, ANSWER));
        answer.addAll(run(n, SUMS));
        return answer;
    }

    private static final String ANSWER = "SELECT k, s, d, dt FROM t ORDER BY k";
    private static final String SUMS = "SELECT COUNT(*), SUM(k), SUM(k * 31 + d), COUNT(s), MIN(s), MAX(s), MAX(dt) FROM t";

    /**
     * Records {@code k,"s",d,dt} for keys 0 to {@code rows - 1}: every third string quoted with a
     * line end and a delimiter in it, every fifth NULL; with {@code pad} characters added to the first.
     */
    private static String records(int rows, int pad) {
        StringBuilder text = new StringBuilder();
        for (int k = 0; k < rows; k++) {
            String s = (k == 0 ? "p".repeat(pad) : "") + "v" + k;
            text.append(k).append(',').append(k % 5 == 4 ? "" : k % 3 == 0 ? "\"" + s + "\nline two, with a comma\"" : s)
                    .append(',').append(k % 7).append(".25,2024-01-0").append(1 + k % 9).append('\n');
        }
        return text.toString();
    }

    /** Says whether a range may begin at {@code offset} of {@code bytes}. */
    private interface Offset {
        boolean fits(byte[] bytes, int offset);
    }

    /** A file of {@code rows} records, padded so that the offset where node 2's range begins of {@code nodes} is one {@code at} accepts. */
    private Path file(String name, int rows, int nodes, Offset at) throws IOException {
        for (int pad = 0; pad < 200; pad++) {
            byte[] bytes = records(rows, pad).getBytes(StandardCharsets.UTF_8);
            if (at.fits(bytes, bytes.length / nodes)) {
                return Files.write(dir.resolve(name), bytes);
            }
        }
        throw new IllegalStateException("no padding puts a range's start where asked");
    }

    /** Each node's rows of {@code t}: by the hash of {@code k} on its owner, or all of them when replicated. */
    private void assertRowsOnTheirOwners(long total, boolean replicated) {
        long sum = 0;
        for (int n = 0; n < cluster.size(); n++) {
            Table table = cluster.database(n).catalog().table("t").orElseThrow();
            assertEquals(0, cluster.database(n).catalog().stagedLoads().size());
            try (Session session = cluster.database(n).newLocalSession();
                    StatementResult result = session.execute("SELECT k FROM t", List.of());
                    BatchStream rows = result.batches()) {
                for (Batch next = rows.next(); next != null; next = rows.next()) {
                    try (Batch batch = next) {
                        for (int part : CpuHashPartitioner.partsOf(batch, List.of(0), cluster.size())) {
                            assertTrue(replicated || part == n, "a row of shard " + part + " on node " + (n + 1));
                        }
                    }
                }
            }
            sum += table.rowCount();
        }
        assertEquals(replicated ? total * cluster.size() : total, sum);
    }

    @ParameterizedTest(name = "{0} nodes over {1}")
    @CsvSource({"2, flight", "3, flight", "3, ucx"})
    void everyRowLandsOnceOnItsOwnerAsOneNodeLoadsIt(int count, String transport) throws IOException {
        start(count, transport);
        // node 2's range begins at a quoted field's opening quote: the first line end after it is inside the field
        Path quoted = file("quoted.csv", 300, count, (b, at) -> b[at] == '"' && b[at + 1] == 'v');
        byte[] bytes = Files.readAllBytes(quoted);
        int speculative = (int) CsvRange.recordStart(quoted, bytes.length / count);
        assertTrue(bytes[speculative - 4] != '-', "node 2's range starts after a line end inside a quoted field");
        // on a record's line end, and just after one
        Path onLineEnd = file("line-end.csv", 200, count, (b, at) -> b[at] == '\n' && b[at - 3] == '-');
        Path afterLineEnd = file("after-line-end.csv", 200, count, (b, at) -> b[at - 1] == '\n' && b[at - 4] == '-');
        for (String distribution : List.of("hash(k)", "replicated")) {
            for (Path csv : List.of(quoted, onLineEnd, afterLineEnd)) {
                run(0, "CREATE TABLE t " + COLUMNS + " WITH (distribution = '" + distribution + "')");
                List<List<Object>> alone = loadedAlone(csv, " (HEADER false)");
                long rows = alone.size() - 1;
                assertEquals(List.of(List.of(rows)), run(1, "COPY t FROM '" + csv + "' (HEADER false)"));
                assertEquals(alone, answer(count - 1), csv + " " + distribution);
                assertRowsOnTheirOwners(rows, distribution.equals("replicated"));
                run(0, "DROP TABLE t");
            }
        }
    }

    @Test
    void aFileOfFewerLinesThanNodesAndAnEmptyFile() throws IOException {
        start(3, "flight");
        run(0, "CREATE TABLE t " + COLUMNS + " WITH (distribution = 'hash(k)')");
        Path one = Files.writeString(dir.resolve("one.csv"), "k,s,d,dt\n7,x,1.50,2024-02-03\n");
        assertEquals(List.of(List.of(1L)), run(2, "COPY t FROM '" + one + "'"));
        Path empty = Files.writeString(dir.resolve("empty.csv"), "");
        assertEquals(List.of(List.of(0L)), run(1, "COPY t FROM '" + empty + "' (HEADER false)"));
        assertEquals(loadedAlone(one, ""), answer(0));
        assertRowsOnTheirOwners(1, false);
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"flight", "ucx"})
    void aBadValueInTheSecondRangeFailsTheCopyNamingItsLineAndLeavesNoRow(String transport) throws IOException {
        start(2, transport);
        run(0, "CREATE TABLE t " + COLUMNS + " WITH (distribution = 'hash(k)')");
        run(0, "INSERT INTO t VALUES (100000, 'before', 1.00, DATE '2024-01-01'), (100001, NULL, 2.00, NULL)");
        StringBuilder text = new StringBuilder("k,s,d,dt\n");
        for (int k = 0; k < 400; k++) {
            text.append(k).append(",v").append(k).append(',').append(k == 300 ? "12.x5" : "1.25").append(",2024-01-02\n");
        }
        Path bad = Files.writeString(dir.resolve("bad.csv"), text);
        WarpException alone = assertThrows(WarpException.class, () -> loadedAlone(bad, ""));
        WarpException e = assertThrows(WarpException.class, () -> run(0, "COPY t FROM '" + bad + "'"));
        assertEquals("22P02", e.state().code());
        assertTrue(e.getMessage().startsWith(bad + ":302:10: expected a DECIMAL"), e.getMessage());
        assertEquals(alone.getMessage(), e.getMessage());
        assertEquals(List.of(List.of(2L, 200001L)), run(1, "SELECT COUNT(*), SUM(k) FROM t"));
        for (int n = 0; n < cluster.size(); n++) {
            assertEquals(0, cluster.database(n).catalog().stagedLoads().size());
        }
    }

    @Test
    void aFileTheNodesCannotSplitIsLoadedByTheCoordinator() throws IOException {
        start(2, "flight");
        run(0, "CREATE TABLE t " + COLUMNS + " WITH (distribution = 'hash(k)')");
        Path plain = Files.writeString(dir.resolve("z.csv"), records(50, 0));
        Path gz = dir.resolve("z.csv.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            Files.copy(plain, out);
        }
        assertEquals(List.of(List.of(50L)), run(1, "COPY t FROM '" + gz + "' (HEADER false)"));
        assertEquals(loadedAlone(plain, " (HEADER false)"), answer(0));
        assertRowsOnTheirOwners(50, false);
    }
}
