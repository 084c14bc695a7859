package io.warpdb.fuzz;

/**
 * A failing case to write down: where the run found it ({@code caseNumber}, counted from 0 in
 * the run; -1 for a replay), its seed, the oracle and its check, and the (minimised) data and
 * queries. {@code fuzzCase} is null when loading the data failed.
 */
public record Finding(long runSeed, long caseNumber, long caseSeed, String oracle, Check check, Dataset dataset,
        OracleCase fuzzCase) {
    /** The file name: by run seed and case number, or by case seed for a replay. */
    public String fileName() {
        return caseNumber >= 0 ? "seed" + runSeed + "-case" + caseNumber + ".test" : "case-" + caseSeed + ".test";
    }
}
