package io.warpdb.fuzz;

import io.warpdb.fuzz.ast.Dialect;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.From;
import io.warpdb.fuzz.ast.Literal;
import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Query;
import io.warpdb.fuzz.ast.SqlType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Shrinks a failing case while the failure reproduces with the same signature: drops tables,
 * simplifies the query tree (a node replaced by one of its children of the same kind, or by a
 * smaller variant of itself: a clause dropped, a join made inner, ...), drops rows (halves,
 * quarters, ... down to single rows) and columns. Each attempt loads the data afresh; the work
 * stops at a time or attempt budget and keeps the smallest failing case found so far.
 */
public final class Minimizer {
    /** The smallest failing case found, and how many candidates were tried. */
    public record Result(Dataset dataset, OracleCase fuzzCase, int attempts) {
    }

    private final BiPredicate<Dataset, OracleCase> attempt;
    private final int maxAttempts;
    private final long deadline;
    private final Set<String> tried = new HashSet<>();
    private Runnable onFinish = () -> { };
    private int attempts;

    /**
     * {@code reproduces} tells whether a candidate still fails the same way; the minimiser stops
     * after {@code maxAttempts} calls of it or {@code maxMillis} milliseconds.
     */
    public Minimizer(BiPredicate<Dataset, OracleCase> reproduces, int maxAttempts, long maxMillis) {
        this.attempt = reproduces;
        this.maxAttempts = maxAttempts;
        this.deadline = System.currentTimeMillis() + maxMillis;
    }

    /**
     * A minimiser that re-runs {@code oracle} and compares signatures with {@code failure}'s. The
     * data is loaded again only when a candidate changes it: query candidates reuse the engines.
     */
    public static Minimizer forOracle(Oracle oracle, Check failure, List<String> executors, int timeoutSeconds, int maxAttempts,
            long maxMillis) {
        LoadedData loaded = new LoadedData(executors, timeoutSeconds);
        Minimizer m = new Minimizer((dataset, fuzzCase) -> {
            Engines engines = loaded.engines(dataset);
            return engines != null && oracle.check(fuzzCase, engines).signature().equals(failure.signature());
        }, maxAttempts, maxMillis);
        m.onFinish = loaded::close;
        return m;
    }

    /** The engines of the dataset last tried, kept while candidates share it. */
    private static final class LoadedData {
        private final List<String> executors;
        private final int timeoutSeconds;
        private Dataset dataset;
        private Engines engines;

        LoadedData(List<String> executors, int timeoutSeconds) {
            this.executors = executors;
            this.timeoutSeconds = timeoutSeconds;
        }

        /** Engines holding the dataset, or null when it does not load. */
        Engines engines(Dataset d) {
            if (d != dataset) {
                close();
                dataset = d;
                try {
                    engines = Engines.load(d, executors, timeoutSeconds);
                } catch (Engines.LoadException e) {
                    engines = null;
                }
            }
            return engines;
        }

        void close() {
            if (engines != null) {
                engines.close();
                engines = null;
            }
            dataset = null;
        }
    }

    /** The smallest variant of the case that still fails (the case itself if none is found in the budget). */
    public Result minimize(Dataset dataset, OracleCase fuzzCase) {
        State s = new State(dataset, fuzzCase);
        boolean progress = true;
        while (progress && !exhausted()) {
            progress = dropTables(s);
            progress |= simplifyQuery(s);
            progress |= dropRows(s);
            progress |= dropColumns(s);
        }
        onFinish.run();
        return new Result(s.dataset, s.fuzzCase, attempts);
    }

    /** The case as the minimiser holds it while shrinking. */
    private static final class State {
        Dataset dataset;
        OracleCase fuzzCase;

        State(Dataset dataset, OracleCase fuzzCase) {
            this.dataset = dataset;
            this.fuzzCase = fuzzCase;
        }
    }

    private boolean exhausted() {
        return attempts >= maxAttempts || System.currentTimeMillis() > deadline;
    }

    /** Tries a candidate; keeps it in the state when it still fails. */
    private boolean accept(State s, Dataset dataset, OracleCase fuzzCase) {
        if (exhausted() || !fuzzCase.wellFormed()) {
            return false;
        }
        String key = dataset.statements() + "\n" + fuzzCase.queries().stream().map(q -> q.render(Dialect.WARPDB)).toList();
        if (!tried.add(key)) {
            return false;
        }
        attempts++;
        if (!attempt.test(dataset, fuzzCase)) {
            return false;
        }
        s.dataset = dataset;
        s.fuzzCase = fuzzCase;
        return true;
    }

    private boolean dropTables(State s) {
        boolean changed = false;
        for (int t = s.dataset.tables().size() - 1; t >= 0 && s.dataset.tables().size() > 1; t--) {
            changed |= accept(s, s.dataset.withoutTable(t), s.fuzzCase);
        }
        return changed;
    }

    private boolean simplifyQuery(State s) {
        boolean changed = false;
        for (int index = 0; !exhausted(); index++) {
            List<List<Integer>> paths = paths(s.fuzzCase);
            if (index >= paths.size()) {
                break;
            }
            List<Integer> path = paths.get(index);
            for (Node candidate : candidates(at(s.fuzzCase, path))) {
                if (accept(s, s.dataset, (OracleCase) replace(s.fuzzCase, path, 0, candidate))) {
                    changed = true;
                    // The node at this position changed: look at it again.
                    index--;
                    break;
                }
            }
        }
        return changed;
    }

    /** Smaller nodes that could stand where {@code node} stands: constants, variants of it, its children. */
    static List<Node> candidates(Node node) {
        List<Node> out = new ArrayList<>();
        if (node instanceof Expr e && !(e instanceof Literal)) {
            out.addAll(constants(e.type()));
        }
        out.addAll(node.simplifications());
        for (Node child : node.children()) {
            if (sameKind(node, child)) {
                out.add(child);
            }
        }
        return out;
    }

    /** NULL and a plain value of the type. */
    private static List<Node> constants(SqlType type) {
        Object plain = switch (type.kind()) {
            case BOOLEAN -> Boolean.TRUE;
            case INTEGER -> 0;
            case BIGINT -> 0L;
            case DOUBLE -> 0.0;
            case DECIMAL -> BigDecimal.ZERO.setScale(type.scale());
            case DATE -> LocalDate.of(2000, 1, 1);
            case CHAR, VARCHAR -> "a";
        };
        List<Node> out = new ArrayList<>(List.of(Literal.nullOf(type), new Literal(plain, type)));
        if (type.kind() == SqlType.Kind.BOOLEAN) {
            out.add(new Literal(Boolean.FALSE, type));
        }
        return out;
    }

    private static boolean sameKind(Node node, Node child) {
        if (node instanceof Expr e && child instanceof Expr c) {
            SqlType a = e.type();
            SqlType b = c.type();
            // A DECIMAL child stands in only at the same scale: columns that read the node keep its type,
            // and the scale shows in a decimal's text (DuckDB gets WarpDB's scale rendered).
            if (a.kind() == SqlType.Kind.DECIMAL) {
                return b.kind() == SqlType.Kind.DECIMAL && a.scale() == b.scale();
            }
            return a.kind() == b.kind() || a.isString() && b.isString();
        }
        if (node instanceof Query q && child instanceof Query c) {
            return q.columnNames().size() == c.columnNames().size();
        }
        return node instanceof From && child instanceof From;
    }

    private boolean dropRows(State s) {
        boolean changed = false;
        for (int t = 0; t < s.dataset.tables().size(); t++) {
            int chunk = Math.max(1, s.dataset.tables().get(t).rows().size() / 2);
            while (chunk >= 1 && !exhausted()) {
                Table table = s.dataset.tables().get(t);
                for (int start = 0; start < table.rows().size() && !exhausted();) {
                    List<List<Object>> rows = new ArrayList<>(table.rows());
                    rows.subList(start, Math.min(rows.size(), start + chunk)).clear();
                    if (accept(s, s.dataset.withTable(t, table.withRows(rows)), s.fuzzCase)) {
                        changed = true;
                        table = s.dataset.tables().get(t);
                    } else {
                        start += chunk;
                    }
                }
                chunk /= 2;
            }
        }
        return changed;
    }

    private boolean dropColumns(State s) {
        boolean changed = false;
        for (int t = 0; t < s.dataset.tables().size(); t++) {
            for (int c = s.dataset.tables().get(t).columns().size() - 1; c >= 0; c--) {
                Table table = s.dataset.tables().get(t);
                if (table.columns().size() > 1) {
                    changed |= accept(s, s.dataset.withTable(t, table.withoutColumn(c)), s.fuzzCase);
                }
            }
        }
        return changed;
    }

    // ---- paths into the tree

    /** The path (child indexes from the root) of every node, in preorder. */
    static List<List<Integer>> paths(Node root) {
        List<List<Integer>> out = new ArrayList<>();
        collect(root, new ArrayList<>(), out);
        return out;
    }

    private static void collect(Node node, List<Integer> path, List<List<Integer>> out) {
        out.add(List.copyOf(path));
        List<Node> children = node.children();
        for (int i = 0; i < children.size(); i++) {
            path.add(i);
            collect(children.get(i), path, out);
            path.remove(path.size() - 1);
        }
    }

    static Node at(Node root, List<Integer> path) {
        Node n = root;
        for (int i : path) {
            n = n.children().get(i);
        }
        return n;
    }

    /** {@code root} with the node at {@code path} (from position {@code depth} on) replaced. */
    static Node replace(Node root, List<Integer> path, int depth, Node replacement) {
        if (depth == path.size()) {
            return replacement;
        }
        List<Node> children = new ArrayList<>(root.children());
        int i = path.get(depth);
        children.set(i, replace(children.get(i), path, depth + 1, replacement));
        return root.withChildren(children);
    }
}
