package io.warpdb.fuzz;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Cases per oracle and verdict. */
public final class FuzzStats {
    private final Map<String, EnumMap<Verdict, Integer>> counts = new LinkedHashMap<>();
    /** Expected errors where only one side failed (fuzz/README.md, "Data errors"). */
    private int oneSidedDataErrors;

    public FuzzStats(Iterable<String> oracles) {
        oracles.forEach(o -> counts.put(o, new EnumMap<>(Verdict.class)));
    }

    public void record(String oracle, Check check) {
        counts.computeIfAbsent(oracle, o -> new EnumMap<>(Verdict.class)).merge(check.verdict(), 1, Integer::sum);
        if (check.signature().equals("expected:one-sided")) {
            oneSidedDataErrors++;
        }
    }

    public int count(Verdict v) {
        return counts.values().stream().mapToInt(m -> m.getOrDefault(v, 0)).sum();
    }

    public int count(String oracle, Verdict v) {
        return counts.getOrDefault(oracle, new EnumMap<>(Verdict.class)).getOrDefault(v, 0);
    }

    public int queries() {
        return counts.values().stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
    }

    public int queries(String oracle) {
        return counts.getOrDefault(oracle, new EnumMap<>(Verdict.class)).values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Mismatches and raw errors. */
    public int findings() {
        return count(Verdict.MISMATCH) + count(Verdict.RAW_ERROR);
    }

    /** One line for progress reports. */
    public String progressLine() {
        StringBuilder perOracle = new StringBuilder();
        counts.keySet().forEach(o -> perOracle.append(perOracle.length() == 0 ? "" : ", ").append(o).append(' ').append(queries(o)));
        return queries() + " queries (" + perOracle + "), " + count(Verdict.MISMATCH) + " mismatches, " + count(Verdict.RAW_ERROR)
                + " raw errors, " + count(Verdict.UNSUPPORTED) + " unsupported";
    }

    /** The final table: one row per oracle and a total. */
    public String table() {
        Verdict[] order = {Verdict.OK, Verdict.MISMATCH, Verdict.RAW_ERROR, Verdict.EXPECTED_ERROR, Verdict.UNSUPPORTED,
            Verdict.INVALID, Verdict.TIMEOUT, Verdict.DUCKDB_BUG};
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-8s %11s", "oracle", "queries run"));
        for (Verdict v : order) {
            sb.append(String.format(Locale.ROOT, " %" + Math.max(9, v.label.length()) + "s", v.label));
        }
        sb.append('\n');
        for (String oracle : counts.keySet()) {
            sb.append(row(oracle, queries(oracle), order, v -> count(oracle, v)));
        }
        sb.append(row("total", queries(), order, this::count));
        sb.append("(expected errors where only one side failed: ").append(oneSidedDataErrors).append(")\n");
        return sb.toString();
    }

    private static String row(String name, int queries, Verdict[] order, java.util.function.ToIntFunction<Verdict> count) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-8s %11d", name, queries));
        for (Verdict v : order) {
            sb.append(String.format(Locale.ROOT, " %" + Math.max(9, v.label.length()) + "d", count.applyAsInt(v)));
        }
        return sb.append('\n').toString();
    }
}
