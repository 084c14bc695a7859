package io.warpdb.fuzz;

import java.sql.SQLException;

/** Why a statement failed: the SQLSTATE (null when there is none), the message, and the kind of failure. */
public record QueryFailure(Kind kind, String sqlState, String message, String exceptionClass) {
    /** How the fuzzer treats a failure. */
    public enum Kind {
        /** Bad data met at run time: division by zero, overflow, invalid cast (SQLSTATE class 22, 21000). */
        DATA,
        /** WarpDB does not support the feature (0A000). */
        UNSUPPORTED,
        /** An internal error: XX000, no SQLSTATE, or an exception that is no SQLException. Always a finding. */
        RAW,
        /** The statement ran out of time (57014, or cancelled by the fuzzer). */
        TIMEOUT,
        /** Anything else: syntax, unknown names, type errors. */
        OTHER
    }

    /** Classifies a WarpDB failure by its SQLSTATE. */
    public static QueryFailure ofWarpDb(Throwable t) {
        if (!(t instanceof SQLException e)) {
            return new QueryFailure(Kind.RAW, null, String.valueOf(t.getMessage()), t.getClass().getName());
        }
        String state = sqlState(e);
        Kind kind;
        if (state == null || state.equals("XX000")) {
            kind = Kind.RAW;
        } else if (state.startsWith("22") || state.equals("21000")) {
            kind = Kind.DATA;
        } else if (state.equals("0A000")) {
            kind = Kind.UNSUPPORTED;
        } else if (state.equals("57014")) {
            kind = Kind.TIMEOUT;
        } else {
            kind = Kind.OTHER;
        }
        return new QueryFailure(kind, state, String.valueOf(e.getMessage()), e.getClass().getName());
    }

    /** Classifies a DuckDB failure by its message (DuckDB's JDBC driver sets no SQLSTATE). */
    public static QueryFailure ofDuckDb(Throwable t) {
        String message = String.valueOf(t.getMessage());
        Kind kind;
        if (message.contains("Out of Range Error") || message.contains("Conversion Error")
                || message.contains("Invalid Input Error")) {
            kind = Kind.DATA;
        } else if (message.contains("INTERRUPT") || message.contains("nterrupted")) {
            kind = Kind.TIMEOUT;
        } else {
            kind = Kind.OTHER;
        }
        return new QueryFailure(kind, null, message, t.getClass().getName());
    }

    /** The first SQLSTATE of the exception, its next exceptions or its causes. */
    static String sqlState(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                for (SQLException n = s; n != null; n = n.getNextException()) {
                    if (n.getSQLState() != null && !n.getSQLState().isEmpty()) {
                        return n.getSQLState();
                    }
                }
            }
        }
        return null;
    }

    /** The failure in a few words: SQLSTATE and the first line of the message (without the SQL Avatica repeats). */
    public String summary() {
        String firstLine = message.replaceFirst("(?s)^.*Error while executing SQL \".*\": ", "").lines().findFirst().orElse("");
        if (firstLine.length() > 200) {
            firstLine = firstLine.substring(0, 200) + "...";
        }
        return "error " + (sqlState != null ? sqlState : kind == Kind.RAW ? exceptionClass : kind.name().toLowerCase())
                + ": " + firstLine;
    }
}
