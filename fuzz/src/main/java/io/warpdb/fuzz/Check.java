package io.warpdb.fuzz;

/**
 * The verdict of an oracle on one case, for one executor. {@code signature} identifies the
 * failure (the minimiser keeps a reduction only while the signature stays the same);
 * {@code warpdb} and {@code reference} are the outcomes compared (the reference is DuckDB's
 * answer, or WarpDB's answer to the oracle's other query).
 */
public record Check(Verdict verdict, String executor, String signature, String detail, Outcome warpdb, Outcome reference) {
    public static Check ok(String executor) {
        return new Check(Verdict.OK, executor, "ok", "", null, null);
    }

    /** The more severe of two checks (the first if equal). */
    public static Check worse(Check a, Check b) {
        if (a == null) {
            return b;
        }
        return b.verdict.ordinal() < a.verdict.ordinal() ? b : a;
    }
}
