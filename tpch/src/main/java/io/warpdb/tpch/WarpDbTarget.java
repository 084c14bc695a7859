package io.warpdb.tpch;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.types.Field;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Queries a WarpDB database through a session of its own, on one executor setting ({@code auto},
 * {@code cpu} or {@code gpu}). Rows are turned into the same Java values the JDBC driver returns.
 */
public final class WarpDbTarget implements QueryTarget, AutoCloseable {
    private final Session session;

    public WarpDbTarget(Database database, String executor) {
        this.session = database.newSession();
        session.setExecutor(executor);
    }

    /** Plans every query afresh instead of reusing a plan kept from an earlier run of its text. */
    public WarpDbTarget withoutPlanCache() {
        session.setPlanCache("off");
        return this;
    }

    @Override
    public String name() {
        return "WarpDB (" + session.executor() + ")";
    }

    @Override
    public ResultTable query(String sql) {
        try (StatementResult result = session.execute(sql, List.of())) {
            if (!result.isQuery()) {
                throw new IllegalArgumentException("not a query: " + sql);
            }
            List<String> columns = result.schema().fields().stream().map(Field::name).toList();
            return new ResultTable(columns, result.rows());
        }
    }

    @Override
    public void close() {
        session.close();
    }
}
