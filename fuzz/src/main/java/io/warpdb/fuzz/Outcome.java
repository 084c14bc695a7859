package io.warpdb.fuzz;

/** What running a query gave: a result or a failure (exactly one is non-null). */
public record Outcome(QueryResult result, QueryFailure failure) {
    public static Outcome of(QueryResult result) {
        return new Outcome(result, null);
    }

    public static Outcome failed(QueryFailure failure) {
        return new Outcome(null, failure);
    }

    public boolean ok() {
        return result != null;
    }

    public boolean failedWith(QueryFailure.Kind kind) {
        return failure != null && failure.kind() == kind;
    }

    public String summary() {
        return ok() ? result.summary(5) : failure.summary();
    }
}
