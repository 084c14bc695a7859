package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.StatementResult;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How a client's statement runs, whichever protocol brought it (Avatica or Flight SQL): a
 * {@code CANCEL QUERY} request at once, anything else on its session's turn, after the
 * statement's previous result is closed, through the server's statement queue and into its query
 * log. The protocol's {@code reply} turns the result into its answer while the statement still
 * holds its turn, taking over the result (a query's stays open on the statement).
 */
final class StatementExecution implements AutoCloseable {
    private final QueryGate gate;
    private final QueryLog log;

    StatementExecution(QueryGate gate, QueryLog log) {
        this.gate = gate;
        this.log = log;
    }

    /** Embedded connections: no queue and no log. */
    static StatementExecution embedded() {
        return new StatementExecution(QueryGate.open(), QueryLog.to(null));
    }

    /** A server's: its queue and query log (which {@link #close} closes). */
    static StatementExecution server(ServerConfig config) {
        return new StatementExecution(new QueryGate(config.maxConcurrentQueries(), config.queueTimeout()),
                QueryLog.to(config.queryLog()));
    }

    /** Runs {@code sql} by {@code execution} (its text, or a prepared statement's kept plan) for {@code statement}. */
    <T> T run(ConnectionState c, StatementState statement, String sql, Supplier<StatementResult> execution,
            Function<StatementResult, T> reply) {
        String cancelled = CancelRequest.connectionId(sql);
        if (cancelled != null) {
            // Not on the session's turn and not queued: the statement it cancels may hold either.
            return log.run(c.id, sql, () -> reply.apply(StatementResult.update(ConnectionState.cancelRunning(cancelled) ? 1 : 0)));
        }
        return c.exclusive(statement, () -> {
            statement.closeResult();
            return log.run(c.id, sql, () -> gate.run(() -> reply.apply(execution.get())));
        });
    }

    /** A batch's reply: the update count of a statement that must not be a query. */
    static long updateCount(StatementResult result, String sql) {
        try (result) {
            if (result.isQuery()) {
                throw new WarpException(SqlState.INVALID_SQL_STATEMENT, "a batch cannot contain a query: " + sql);
            }
            return result.updateCount();
        }
    }

    @Override
    public void close() {
        log.close();
    }
}
