package io.warpdb.sql;

import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SharedNode;
import io.warpdb.core.plan.ValuesNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The executor of every plan node, and for a node on the CPU that another executor was asked
 * about, why that one cannot run it: EXPLAIN prints both, so a fallback to the CPU is never
 * silent. The CPU is the executor of last resort: a node another executor refuses while it runs
 * (out of device memory) falls back on it. Nodes are keyed by identity (plan nodes are records;
 * equal subtrees are distinct).
 */
final class Placement {
    static final String CPU = "cpu";

    private final Map<PlanNode, String> executors = new IdentityHashMap<>();
    private final Map<PlanNode, List<String>> refusals = new IdentityHashMap<>();
    private final Map<PlanNode, String> methods = new IdentityHashMap<>();
    private final List<ExecutorProvider> candidates;

    private Placement(List<ExecutorProvider> candidates) {
        this.candidates = candidates;
    }

    /**
     * Places the plan according to the session's setting: {@code cpu} puts every node on the
     * CPU; {@code auto} tries the available non-CPU executors, a named one (e.g. {@code gpu})
     * only that one. A node goes to the first of them that supports it, else to the CPU. Leaves
     * (scans, values) stay with their parent's executor, so that a scan feeding the CPU is not
     * uploaded to a device only to come back; constant rows that are the whole plan (an EXPLAIN's
     * lines, SELECT of constants) stay on the CPU for the same reason. A named executor that is not
     * available here leaves every node on the CPU, and the root says why.
     */
    static Placement of(PlanNode plan, String setting, ExecutorRegistry registry) {
        String unavailable = null;
        List<ExecutorProvider> candidates = new ArrayList<>();
        if (setting.equals("auto")) {
            registry.providers().stream()
                    .filter(p -> !p.name().equals(CPU) && p.availability().supported())
                    .forEach(candidates::add);
        } else if (!setting.equals(CPU)) {
            Optional<ExecutorProvider> named = registry.find(setting);
            Support availability = named.map(ExecutorProvider::availability).orElse(Support.no("no such executor"));
            if (availability.supported()) {
                candidates.add(named.get());
            } else {
                unavailable = setting + " is not available: " + availability.reason();
            }
        }
        Placement placement = new Placement(candidates);
        placement.place(plan, null);
        if (unavailable != null) {
            placement.refusals.put(plan, List.of(unavailable));
        }
        return placement;
    }

    private void place(PlanNode node, String parentExecutor) {
        boolean leaf = node.inputs().isEmpty();
        String executor = CPU;
        List<String> refused = new ArrayList<>();
        boolean constantPlan = leaf && parentExecutor == null && node instanceof ValuesNode;
        for (ExecutorProvider p : constantPlan ? List.<ExecutorProvider>of() : candidates) {
            if (leaf && parentExecutor != null && !p.name().equals(parentExecutor)) {
                continue;
            }
            Support s = p.supports(node);
            if (s.supported()) {
                executor = p.name();
                if (s.reason() != null) {
                    methods.put(node, s.reason());
                }
                break;
            }
            refused.add(p.name() + " cannot run it: " + s.reason());
        }
        executors.put(node, executor);
        if (executor.equals(CPU) && !refused.isEmpty()) {
            refusals.put(node, refused);
        }
        for (PlanNode input : node.inputs()) {
            place(input, executor);
        }
    }

    /** Node (by identity) to executor name, as {@link io.warpdb.core.exec.ExecContext} takes it. */
    Map<PlanNode, String> executors() {
        return Collections.unmodifiableMap(executors);
    }

    /**
     * Node (by identity) to the executor that runs it when its own refuses it, as
     * {@link io.warpdb.core.exec.ExecContext} takes it: the CPU for every node placed elsewhere.
     */
    Map<PlanNode, String> fallbacks() {
        Map<PlanNode, String> fallbacks = new IdentityHashMap<>();
        executors.forEach((node, executor) -> {
            if (!executor.equals(CPU)) {
                fallbacks.put(node, CPU);
            }
        });
        return Collections.unmodifiableMap(fallbacks);
    }

    /** The plan as EXPLAIN shows it: one line per node, indented by depth, with its executor. */
    List<String> explain(PlanNode plan) {
        return lines(plan, node -> "  [" + bracket(node, executors.get(node)) + "]");
    }

    /**
     * The plan as EXPLAIN ANALYZE shows it after a run: each line with the executor that
     * actually ran the node (after a fallback it differs from the placement) and the node's
     * figures; {@code stats} gives each node's statistics.
     */
    List<String> explainAnalyzed(PlanNode plan, Function<PlanNode, NodeStats> stats) {
        return lines(plan, node -> {
            NodeStats s = stats.apply(node);
            String ran = s.executor() != null ? s.executor() : executors.get(node);
            StringBuilder line = new StringBuilder("  [").append(bracket(node, ran)).append("]")
                    .append(" rows=").append(s.rows()).append(" time=").append(millis(s.wallNanos()));
            if (s.kernelNanos() != 0) {
                line.append(" kernel=").append(millis(s.kernelNanos()));
            }
            if (s.bytesToDevice() != 0) {
                line.append(" h2d=").append(megabytes(s.bytesToDevice()));
            }
            if (s.bytesToHost() != 0) {
                line.append(" d2h=").append(megabytes(s.bytesToHost()));
            }
            if (s.deviceBytesRead() != 0 || s.deviceBytesWritten() != 0) {
                line.append(" dev_read=").append(megabytes(s.deviceBytesRead()))
                        .append(" dev_write=").append(megabytes(s.deviceBytesWritten()));
                if (s.kernelNanos() != 0) {
                    line.append(String.format(Locale.ROOT, " dev_bw=%.0f GB/s", s.deviceGigabytesPerSecond()));
                }
            }
            s.notes().forEach(note -> line.append("; ").append(note));
            return line.toString();
        });
    }

    /**
     * The executor and how it runs the node when it said so (e.g. {@code gpu: hash join}), or on
     * the CPU, why the candidates refused the node.
     */
    private String bracket(PlanNode node, String executor) {
        if (!executor.equals(CPU)) {
            String method = executor.equals(executors.get(node)) ? methods.get(node) : null;
            return method == null ? executor : executor + ": " + method;
        }
        List<String> refused = refusals.get(node);
        return refused == null ? executor : executor + "; " + String.join("; ", refused);
    }

    /** The lines of the plan's nodes; a shared subplan's input is printed under its first use only. */
    private static List<String> lines(PlanNode plan, Function<PlanNode, String> suffix) {
        List<String> lines = new ArrayList<>();
        print(plan, 0, suffix, lines, new HashSet<>());
        return lines;
    }

    private static void print(PlanNode node, int depth, Function<PlanNode, String> suffix, List<String> lines,
            Set<Integer> sharedPrinted) {
        if (node instanceof SharedNode shared && !sharedPrinted.add(shared.id())) {
            lines.add("  ".repeat(depth) + shared.describeReuse() + suffix.apply(node));
            return;
        }
        lines.add("  ".repeat(depth) + node.describe() + suffix.apply(node));
        node.inputs().forEach(in -> print(in, depth + 1, suffix, lines, sharedPrinted));
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    /** Decimal megabytes (10^6 bytes). */
    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
