package io.warpdb.tpch;

/**
 * A query of a benchmark suite (TPC-H, TPC-DS) with its rule for comparing an answer with the
 * reference's: what {@link SuiteRunner} and {@link SuiteBench} run.
 */
public interface SuiteQuery {
    /** The query's number in its suite. */
    int number();

    /** For output: {@code q01}, {@code q02}, ... */
    default String name() {
        return String.format("q%02d", number());
    }

    String sql();

    /** Whether {@code actual} matches the reference answer {@code expected}, and if not, how. */
    AnswerChecker.Verdict check(ResultTable expected, ResultTable actual);
}
