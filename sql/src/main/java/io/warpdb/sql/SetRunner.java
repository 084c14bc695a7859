package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.Locale;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;

/** SET name = value: changes one of the session's settings. */
final class SetRunner {
    private final Session session;

    SetRunner(Session session) {
        this.session = session;
    }

    /** Applies the setting; SQLSTATE 22023 for an unknown name or a bad value. */
    StatementResult run(SqlSetOption option) {
        String name = option.getName().toString().toLowerCase(Locale.ROOT);
        SqlNode value = option.getValue();
        String text = value instanceof SqlCharStringLiteral s ? s.getValueAs(String.class)
                : value instanceof SqlIdentifier id ? id.toString() : String.valueOf(value);
        switch (name) {
            case "executor" -> session.setExecutor(text);
            case "parallelism" -> {
                try {
                    session.setParallelism(Integer.parseInt(text.trim()));
                } catch (NumberFormatException e) {
                    throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "parallelism must be a whole number, not '" + text + "'");
                }
            }
            case "memory_limit" -> session.setMemoryLimit(text);
            case "query_timeout" -> session.setQueryTimeout(text);
            case "plan_cache" -> session.setPlanCache(text);
            default -> throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                    "unknown setting '" + name + "'; settable: executor, parallelism, memory_limit, query_timeout, plan_cache");
        }
        return StatementResult.update(0);
    }
}
