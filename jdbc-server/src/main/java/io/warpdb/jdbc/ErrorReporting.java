package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a failure inside {@link WarpMeta} into the exception from which Avatica copies the
 * SQLSTATE onto the client's {@link java.sql.SQLException}. The two paths read it from
 * different types: in-process, Avatica's {@code Helper} reads an
 * {@link AvaticaClientRuntimeException}; behind the server, the protocol handler puts an
 * {@link AvaticaRuntimeException}'s state into the error response that the remote client
 * rethrows. Anything that is not a {@link WarpException} is a bug: it reaches the client as
 * SQLSTATE XX000 and is logged here with its stack.
 */
enum ErrorReporting {
    EMBEDDED {
        @Override
        RuntimeException exception(String message, String sqlState, Throwable cause) {
            return new AvaticaClientRuntimeException(message, VENDOR_CODE, sqlState, AvaticaSeverity.ERROR,
                    List.of(stackTrace(cause)), null);
        }
    },
    SERVER {
        @Override
        RuntimeException exception(String message, String sqlState, Throwable cause) {
            RuntimeException e = new AvaticaRuntimeException(message, VENDOR_CODE, sqlState, AvaticaSeverity.ERROR);
            e.initCause(cause);
            return e;
        }
    },
    /**
     * Flight SQL carries a gRPC status and a description; the stock Flight SQL JDBC driver makes
     * its SQLException from the description alone, so the description names the SQLSTATE too.
     */
    FLIGHT {
        @Override
        RuntimeException exception(String message, String sqlState, Throwable cause) {
            return flightStatus(sqlState).withDescription(message + " (SQLSTATE " + sqlState + ")").withCause(cause)
                    .toRuntimeException();
        }
    };

    /** WarpDB has no vendor error codes; the SQLSTATE says what went wrong. */
    private static final int VENDOR_CODE = 0;
    private static final Logger LOG = LoggerFactory.getLogger(ErrorReporting.class);

    abstract RuntimeException exception(String message, String sqlState, Throwable cause);

    /** The exception to throw to the client for {@code e}. */
    RuntimeException translate(Throwable e) {
        if (e instanceof AvaticaClientRuntimeException || e instanceof AvaticaRuntimeException
                || e instanceof NoSuchConnectionException || e instanceof FlightRuntimeException) {
            return (RuntimeException) e;
        }
        if (e instanceof WarpException w) {
            return exception(w.getMessage(), w.sqlState(), w);
        }
        LOG.error("internal error", e);
        return exception("internal error: " + e, SqlState.INTERNAL_ERROR.code(), e);
    }

    /** The gRPC status closest to an SQLSTATE's class. */
    private static CallStatus flightStatus(String sqlState) {
        String stateClass = sqlState.substring(0, 2);
        return switch (stateClass) {
            case "28" -> CallStatus.UNAUTHENTICATED;
            case "42", "22", "23", "0A", "26", "34" -> CallStatus.INVALID_ARGUMENT;
            case "53" -> CallStatus.RESOURCE_EXHAUSTED;
            case "57" -> CallStatus.CANCELLED;
            case "08" -> CallStatus.UNAVAILABLE;
            case "XX" -> CallStatus.INTERNAL;
            default -> CallStatus.UNKNOWN;
        };
    }

    private static String stackTrace(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
