package io.warpdb.fuzz;

import io.warpdb.fuzz.QueryFailure.Kind;
import io.warpdb.fuzz.ast.Aggregate;
import io.warpdb.fuzz.ast.Binary;
import io.warpdb.fuzz.ast.Dialect;
import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Query;
import io.warpdb.fuzz.ast.Unary;
import java.sql.SQLException;
import java.util.Map;
import java.util.Random;

/**
 * Differential testing: the same query, rendered for each dialect, on WarpDB and on DuckDB with
 * the same data. Results compare as multisets, or in order where the query orders its rows
 * totally. Data errors (division by zero, overflow, invalid cast) are agreement when both
 * fail; when only one side fails, see fuzz/README.md ("Data errors").
 */
public final class DuckDbOracle implements Oracle {
    @Override
    public String name() {
        return "duckdb";
    }

    @Override
    public OracleCase generate(QueryGenerator generator, Random random) {
        return new DifferentialCase(generator.query());
    }

    @Override
    public Check check(OracleCase fuzzCase, Engines engines) {
        Query query = ((DifferentialCase) fuzzCase).query();
        String duckSql = query.render(Dialect.DUCKDB);
        Outcome duck = engines.duckdb().run(duckSql);
        String sql = query.render(Dialect.WARPDB);
        Check worst = null;
        for (Map.Entry<String, Engine> e : engines.warpdb().entrySet()) {
            Outcome warp = e.getValue().run(sql);
            Outcome reference = duck;
            if (warp.ok() && duck.failedWith(Kind.DATA) && duck.failure().message().contains("Division by zero")
                    && !testsDivisionForNull(query)) {
                reference = withoutDivisionErrors(engines.duckdb(), duckSql);
            }
            Check check = judge(e.getKey(), warp, reference, query.totallyOrdered());
            if (check.signature().startsWith("mismatch:rows:") && agreesUnoptimized(engines.duckdb(), duckSql, warp, query)) {
                check = new Check(Verdict.DUCKDB_BUG, e.getKey(), "duckdb-bug", check.detail(), warp, duck);
            }
            worst = Check.worse(worst, check);
        }
        return worst;
    }

    /** Whether DuckDB, with its optimizer off, gives WarpDB's answer (so DuckDB's optimizer is at fault). */
    private static boolean agreesUnoptimized(Engine duckdb, String sql, Outcome warp, Query query) {
        Outcome plain = withSetting(duckdb, "PRAGMA disable_optimizer", "PRAGMA enable_optimizer", sql);
        return plain.ok() && ResultComparator.compare(plain.result(), warp.result(), query.totallyOrdered()) == null;
    }

    /**
     * DuckDB's answer with a division by zero giving NULL instead of an error. Where WarpDB
     * answered, it evaluated no division by zero on a row that counts (DuckDB may have, folding
     * a constant or evaluating a discarded CASE branch); its answer must then equal this one.
     */
    private static Outcome withoutDivisionErrors(Engine duckdb, String sql) {
        return withSetting(duckdb, "SET error_on_division_by_zero = false", "SET error_on_division_by_zero = true", sql);
    }

    /**
     * Whether a division or remainder is tested for NULL without its value being needed (under IS
     * [NOT] NULL, compared by IS [NOT] DISTINCT FROM, or counted by COUNT). SQL lets WarpDB answer such a test without evaluating the
     * division (it is never NULL for non-NULL operands), while DuckDB's division-by-zero-as-NULL
     * answer differs; there the re-check says nothing and the one-sided error stands.
     */
    static boolean testsDivisionForNull(Node node) {
        Node tested = node instanceof Unary u && (u.op() == Unary.Op.IS_NULL || u.op() == Unary.Op.IS_NOT_NULL) ? u.arg()
                : node instanceof Aggregate a && a.function() == Aggregate.Function.COUNT ? a.arg()
                : null;
        if (tested != null && divides(tested) || node instanceof Binary b && isDistinctTest(b) && divides(b)) {
            return true;
        }
        return node.children().stream().anyMatch(DuckDbOracle::testsDivisionForNull);
    }

    /**
     * IS [NOT] DISTINCT FROM: a NULL test of one side wherever the other folds to NULL
     * ({@code NULLIF(NULL, x)} does), which the fuzzer cannot tell from the query text.
     */
    private static boolean isDistinctTest(Binary b) {
        return b.op() == Binary.Op.IS_DISTINCT_FROM || b.op() == Binary.Op.IS_NOT_DISTINCT_FROM;
    }

    private static boolean divides(Node node) {
        return node instanceof Binary b && (b.op() == Binary.Op.DIVIDE || b.op() == Binary.Op.MOD)
                || node.children().stream().anyMatch(DuckDbOracle::divides);
    }

    /** The query's outcome on DuckDB with a setting changed for it. */
    private static Outcome withSetting(Engine duckdb, String set, String reset, String sql) {
        try {
            duckdb.execute(set);
            try {
                return duckdb.run(sql);
            } finally {
                duckdb.execute(reset);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB refused " + set, e);
        }
    }

    /** The verdict on WarpDB's outcome against DuckDB's. */
    static Check judge(String executor, Outcome warp, Outcome duck, boolean ordered) {
        String detail = "WarpDB (" + executor + "): " + warp.summary() + "; DuckDB: " + duck.summary();
        if (warp.failedWith(Kind.RAW)) {
            return new Check(Verdict.RAW_ERROR, executor, rawSignature(warp.failure()), detail, warp, duck);
        }
        if (warp.failedWith(Kind.TIMEOUT) || duck.failedWith(Kind.TIMEOUT)) {
            return new Check(Verdict.TIMEOUT, executor, "timeout", detail, warp, duck);
        }
        if (warp.failedWith(Kind.UNSUPPORTED)) {
            return new Check(Verdict.UNSUPPORTED, executor, "unsupported", detail, warp, duck);
        }
        if (duck.failedWith(Kind.OTHER)) {
            return new Check(Verdict.INVALID, executor, "invalid", detail, warp, duck);
        }
        if (warp.ok() && duck.ok()) {
            String difference = ResultComparator.compare(duck.result(), warp.result(), ordered);
            return difference == null ? Check.ok(executor)
                    : new Check(Verdict.MISMATCH, executor, "mismatch:rows:" + executor, detail + "; " + difference, warp, duck);
        }
        if (warp.failedWith(Kind.DATA) && duck.failedWith(Kind.DATA)) {
            return new Check(Verdict.EXPECTED_ERROR, executor, "expected", detail, warp, duck);
        }
        // A data error on one side only: the engines evaluate expressions in different orders and on
        // different rows (short-circuits, constant folding), and WarpDB's types are narrower (22003).
        if (warp.failedWith(Kind.DATA) || duck.failedWith(Kind.DATA) && warp.ok()) {
            return new Check(Verdict.EXPECTED_ERROR, executor, "expected:one-sided", detail, warp, duck);
        }
        String side = warp.ok() ? "warpdb-answers" : "warpdb-fails:" + warp.failure().sqlState();
        return new Check(Verdict.MISMATCH, executor, "mismatch:" + side + ":" + executor, detail, warp, duck);
    }

    /** A raw error by SQLSTATE (or exception class) and the start of its message, digits dropped. */
    static String rawSignature(QueryFailure f) {
        String words = f.summary().replaceAll("[0-9]+", "");
        return "raw:" + (words.length() > 80 ? words.substring(0, 80) : words);
    }
}
