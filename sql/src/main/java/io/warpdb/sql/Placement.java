package io.warpdb.sql;

import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which executor runs a plan, and for every node an executor was asked about but cannot run,
 * why: EXPLAIN prints both, so a fallback to the CPU is never silent.
 */
record Placement(ExecutorProvider executor, Map<PlanNode, String> refusals) {
    static final String CPU = "cpu";

    /** Places the plan according to the session's setting {@code auto}, {@code cpu} or {@code gpu}. */
    static Placement of(PlanNode plan, String setting, ExecutorRegistry registry) {
        List<ExecutorProvider> candidates = new ArrayList<>();
        if (setting.equals("auto")) {
            for (ExecutorProvider p : registry.providers()) {
                if (!p.name().equals(CPU) && p.availability().supported()) {
                    candidates.add(p);
                }
            }
        } else if (!setting.equals(CPU)) {
            candidates.add(registry.require(setting));
        }
        Map<PlanNode, String> refusals = new IdentityHashMap<>();
        for (ExecutorProvider p : candidates) {
            Map<PlanNode, String> refused = new IdentityHashMap<>();
            collectRefusals(plan, p, refused);
            if (refused.isEmpty()) {
                return new Placement(p, Map.of());
            }
            refusals.putAll(refused);
        }
        return new Placement(registry.require(CPU), refusals);
    }

    private static void collectRefusals(PlanNode node, ExecutorProvider p, Map<PlanNode, String> out) {
        Support s = p.supports(node);
        if (!s.supported()) {
            out.put(node, p.name() + " cannot run it: " + s.reason());
        }
        node.inputs().forEach(in -> collectRefusals(in, p, out));
    }

    /** The plan as EXPLAIN shows it: one line per node, indented by depth, with its executor. */
    List<String> explain(PlanNode plan) {
        List<String> lines = new ArrayList<>();
        print(plan, 0, lines);
        return lines;
    }

    private void print(PlanNode node, int depth, List<String> lines) {
        String refusal = refusals.get(node);
        lines.add("  ".repeat(depth) + node.describe() + "  [" + executor.name() + (refusal == null ? "" : "; " + refusal) + "]");
        node.inputs().forEach(in -> print(in, depth + 1, lines));
    }
}
