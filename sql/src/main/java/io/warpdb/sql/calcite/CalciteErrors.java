package io.warpdb.sql.calcite;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Turns Calcite's parse and validation exceptions into {@link WarpException}s with a SQLSTATE
 * and a message that points at the problem (line and column).
 */
public final class CalciteErrors {
    private CalciteErrors() {
    }

    public static WarpException fromParse(SqlParseException e) {
        SqlParserPos pos = e.getPos();
        String message = firstLine(e.getMessage());
        String where = pos == null ? "" : " at line " + pos.getLineNum() + ", column " + pos.getColumnNum();
        return new WarpException(SqlState.SYNTAX_ERROR, "syntax error" + where + ": " + message, e);
    }

    public static WarpException fromValidation(CalciteContextException e) {
        String detail = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getMessage();
        String where = e.getPosLine() > 0 ? " (line " + e.getPosLine() + ", column " + e.getPosColumn() + ")" : "";
        return new WarpException(classify(detail), detail + where, e);
    }

    /** The SQLSTATE for a validator message; Calcite reports its errors by message only. */
    static SqlState classify(String message) {
        if (message.matches("(?s)(Object|Table) '.*' not found.*")) {
            return SqlState.UNDEFINED_TABLE;
        }
        if (message.matches("(?s)(Column '.*' not found|Unknown target column|Unknown field).*")) {
            return SqlState.UNDEFINED_COLUMN;
        }
        if (message.contains("GROUPING operator")) {
            return SqlState.GROUPING_ERROR;
        }
        if (message.startsWith("No match found for function signature")) {
            return SqlState.UNDEFINED_FUNCTION;
        }
        if (message.contains("does not allow NULLs")) {
            return SqlState.NOT_NULL_VIOLATION;
        }
        if (message.startsWith("Cannot apply") || message.startsWith("Cannot assign") || message.contains("cannot be cast")
                || message.startsWith("Type mismatch") || message.contains("must be") || message.contains("incompatible")) {
            return SqlState.DATATYPE_MISMATCH;
        }
        if (message.startsWith("Column '") && message.contains("is ambiguous")) {
            return SqlState.UNDEFINED_COLUMN;
        }
        return SqlState.INVALID_SQL_STATEMENT;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }
}
