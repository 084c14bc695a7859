package io.warpdb.tools;

import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.SuiteQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --explain-analyze FILE} of the suite commands: each query run once more under EXPLAIN
 * ANALYZE and its plan written to the file, then the plan nodes left on the CPU, each with the
 * reason its executor gave (refused at planning: {@code [cpu; gpu cannot run it: ...]}, or at run
 * time: {@code reran on cpu}), listed at the end and counted on stderr; last, the per-query
 * roofline ({@link RooflineTable}) at {@code copyGigabytesPerSecond} where the plans ran on the GPU.
 */
final class ExplainAnalyzeFile {
    private ExplainAnalyzeFile() {
    }

    static void write(List<QueryTarget> targets, List<? extends SuiteQuery> queries, Path file, double copyGigabytesPerSecond) {
        List<String> lines = new ArrayList<>();
        List<String> onCpu = new ArrayList<>();
        List<RooflineTable.Row> roofline = new ArrayList<>();
        for (QueryTarget target : targets) {
            for (SuiteQuery q : queries) {
                String title = q.name() + (targets.size() > 1 ? " on " + target.name() : "");
                lines.add("EXPLAIN ANALYZE " + title);
                List<String> plan = new ArrayList<>();
                for (List<Object> row : target.query("explain analyze " + q.sql()).rows()) {
                    String line = String.valueOf(row.get(0));
                    plan.add(line);
                    if (leftOnCpu(line)) {
                        onCpu.add(title + ": " + line.strip());
                    }
                }
                lines.addAll(plan);
                roofline.add(RooflineTable.Row.of(title, plan));
            }
        }
        lines.add("");
        lines.add("Plan nodes left on the CPU: " + onCpu.size());
        lines.addAll(onCpu);
        List<String> table = RooflineTable.format(roofline, copyGigabytesPerSecond);
        if (!table.isEmpty()) {
            lines.add("");
            lines.addAll(table);
        }
        try {
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        System.err.println("plans written to " + file + "; plan nodes left on the CPU: " + onCpu.size());
    }

    /** Whether a plan line is a node that another executor refused, when planned or when run. */
    static boolean leftOnCpu(String line) {
        return line.contains("[cpu;") || line.contains("reran on cpu");
    }
}
