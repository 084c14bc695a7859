package io.warpdb.sql;

import java.util.List;

/**
 * Takes over the statements of a database's client sessions before they run locally: how a
 * cluster node coordinates the statements its clients send. Sessions from
 * {@link Database#newLocalSession()} bypass it, so that the interceptor itself can run
 * statements on the node's own data.
 */
@FunctionalInterface
public interface StatementInterceptor {
    /** The statement's result, or null to run it on this database as usual. */
    StatementResult intercept(Session session, String sql, List<Object> parameters);
}
