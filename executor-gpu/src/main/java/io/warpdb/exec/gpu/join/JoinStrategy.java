package io.warpdb.exec.gpu.join;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import java.util.Locale;

/**
 * The rule that picks the GPU join algorithm, from the plan alone so that EXPLAIN shows it:
 * <ul>
 *   <li>no equality keys: nested loop (the M-BSP PRODUCT, then the condition filters the pairs);
 *   <li>RIGHT and FULL joins: sort-merge, whose merge finds the unmatched rows of both sides
 *       in the same pass (hash join would need a second pass marking build rows); hash join when
 *       the keys cannot be merged;
 *   <li>everything else: hash join, which reads each input once and touches the table at random
 *       (cheap in HBM and L2), where sort-merge first sorts both inputs.
 * </ul>
 * {@code -Dwarpdb.gpu.join=hash|merge} overrides the rule for equi-joins (benchmarks and tests
 * of either algorithm).
 */
public final class JoinStrategy {
    public static final String OVERRIDE_PROPERTY = "warpdb.gpu.join";

    /** The GPU join algorithms. */
    public enum Algorithm {
        HASH("hash join"),
        SORT_MERGE("sort-merge join"),
        NESTED_LOOP("nested-loop join");

        private final String label;

        Algorithm(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** Whether it finds the pairs of {@code kind} itself; other kinds complete its inner pairs. */
        boolean produces(JoinKind kind) {
            return switch (this) {
                case HASH -> kind != JoinKind.RIGHT && kind != JoinKind.FULL;
                case SORT_MERGE -> kind != JoinKind.SEMI && kind != JoinKind.ANTI;
                case NESTED_LOOP -> kind == JoinKind.INNER;
            };
        }
    }

    private JoinStrategy() {
    }

    /** Whether the GPU runs {@code node}, and with which algorithm. */
    public static Support supports(JoinNode node) {
        String keys = unsupportedKeyTypes(node);
        return keys != null ? Support.no(keys) : Support.yes(choose(node).label());
    }

    /** The algorithm for {@code node}, whose key types the GPU supports. */
    public static Algorithm choose(JoinNode node) {
        if (node.leftKeys().isEmpty()) {
            return Algorithm.NESTED_LOOP;
        }
        boolean mergeable = GpuMergeJoin.unsupportedKeys(node) == null;
        String forced = System.getProperty(OVERRIDE_PROPERTY, "").toLowerCase(Locale.ROOT);
        if (forced.equals("hash")) {
            return Algorithm.HASH;
        }
        if (forced.equals("merge") && mergeable) {
            return Algorithm.SORT_MERGE;
        }
        boolean outerRight = node.kind() == JoinKind.RIGHT || node.kind() == JoinKind.FULL;
        return outerRight && mergeable ? Algorithm.SORT_MERGE : Algorithm.HASH;
    }

    private static String unsupportedKeyTypes(JoinNode node) {
        for (int k = 0; k < node.leftKeys().size(); k++) {
            String reason = DeviceJoinKeys.unsupported(node.left().schema().type(node.leftKeys().get(k)),
                    node.right().schema().type(node.rightKeys().get(k)));
            if (reason != null) {
                return reason;
            }
        }
        return null;
    }
}
