package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.tpch.AnswerChecker;
import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.ResultTable;
import io.warpdb.tpch.SuiteQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExplainAnalyzeFileTest {
    @Test
    void theFileEndsWithTheNodesLeftOnTheCpuAndTheRoofline(@TempDir Path dir) throws IOException {
        Map<String, List<String>> plans = Map.of(
                "explain analyze select 1", List.of(
                        "Aggregate()  [gpu] rows=1 time=2.0 ms kernel=1.0 ms dev_read=3000.0 MB dev_write=0.0 MB dev_bw=3000 GB/s",
                        "  Scan(table=t)  [gpu] rows=9 time=0.1 ms"),
                "explain analyze select 2", List.of("Aggregate()  [cpu; gpu cannot run it: test] rows=1 time=1.0 ms"));
        Path file = dir.resolve("plans.txt");
        ExplainAnalyzeFile.write(List.of(target(plans)), List.of(query(1), query(2)), file, 1500);
        assertEquals(List.of(
                "EXPLAIN ANALYZE q01",
                "Aggregate()  [gpu] rows=1 time=2.0 ms kernel=1.0 ms dev_read=3000.0 MB dev_write=0.0 MB dev_bw=3000 GB/s",
                "  Scan(table=t)  [gpu] rows=9 time=0.1 ms",
                "EXPLAIN ANALYZE q02",
                "Aggregate()  [cpu; gpu cannot run it: test] rows=1 time=1.0 ms",
                "",
                "Plan nodes left on the CPU: 1",
                "q02: Aggregate()  [cpu; gpu cannot run it: test] rows=1 time=1.0 ms",
                "",
                "Roofline at 1500 GB/s (device bytes estimated per node from the columns it consumed and produced):",
                "query             kernel ms   dev MB r+w       GB/s     at bw ms    ratio",
                "q01                     1.0       3000.0       3000         2.00      0.5",
                "q02                     0.0          0.0          0         0.00        -",
                "total                   1.0       3000.0       3000         2.00      0.5"), Files.readAllLines(file));
    }

    /** A target that answers each EXPLAIN ANALYZE with the plan lines {@code plans} gives for it. */
    private static QueryTarget target(Map<String, List<String>> plans) {
        return new QueryTarget() {
            @Override
            public String name() {
                return "plans";
            }

            @Override
            public ResultTable query(String sql) {
                return new ResultTable(List.of("plan"), plans.get(sql).stream().<List<Object>>map(List::of).toList());
            }
        };
    }

    private static SuiteQuery query(int number) {
        return new SuiteQuery() {
            @Override
            public int number() {
                return number;
            }

            @Override
            public String sql() {
                return "select " + number;
            }

            @Override
            public AnswerChecker.Verdict check(ResultTable expected, ResultTable actual) {
                throw new AssertionError("not checked");
            }
        };
    }
}
