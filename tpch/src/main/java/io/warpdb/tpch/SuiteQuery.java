package io.warpdb.tpch;

/**
 * A query of a benchmark suite (TPC-H, TPC-DS) with its rule for comparing an answer with the
 * reference's: what {@link SuiteRunner} and {@link SuiteBench} run.
 */
public interface SuiteQuery {
    /** For output, e.g. {@code q01}. */
    String name();

    String sql();

    /** Whether {@code actual} matches the reference answer {@code expected}, and if not, how. */
    AnswerChecker.Verdict check(ResultTable expected, ResultTable actual);
}
