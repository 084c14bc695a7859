package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/** What a statement does, which decides the class that runs it. {@link ParsedStatement#parse} decides it once. */
enum StatementKind {
    /** SELECT, VALUES, WITH and set operations, run by {@link QueryRunner}. */
    QUERY,
    /** INSERT, run by {@link DmlRunner}. */
    INSERT,
    /** UPDATE, run by {@link DmlRunner}. */
    UPDATE,
    /** DELETE, run by {@link DmlRunner}. */
    DELETE,
    /** CREATE/DROP TABLE, CREATE/DROP VIEW and COPY, which WarpDB parses itself; run by {@link DdlRunner}. */
    DDL,
    /** SET name = value, run by {@link SetRunner}. */
    SET;

    /** The kind of a statement Calcite parsed; SQLSTATE 0A000 for one WarpDB does not run. */
    static StatementKind of(SqlNode node) {
        return switch (node.getKind()) {
            case INSERT -> INSERT;
            case UPDATE -> UPDATE;
            case DELETE -> DELETE;
            case SET_OPTION -> SET;
            default -> {
                if (!node.isA(SqlKind.QUERY)) {
                    throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, node.getKind() + " statements are not supported yet");
                }
                yield QUERY;
            }
        };
    }

    /** Whether the statement changes a table's rows: INSERT, UPDATE or DELETE. */
    boolean isDml() {
        return this == INSERT || this == UPDATE || this == DELETE;
    }

    /** Whether Calcite plans it into a core plan: a query or DML. */
    boolean isPlanned() {
        return this == QUERY || isDml();
    }
}
