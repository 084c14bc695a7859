package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.List;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.junit.jupiter.api.Test;

class ErrorReportingTest {
    @Test
    void embeddedErrorsCarryTheirStateToAvaticasHelper() {
        RuntimeException e = ErrorReporting.EMBEDDED.translate(new WarpException(SqlState.UNDEFINED_TABLE, "table t does not exist"));
        AvaticaClientRuntimeException client = (AvaticaClientRuntimeException) e;
        assertEquals("42P01", client.getSqlState());
        assertEquals("table t does not exist", client.getMessage());
    }

    @Test
    void serverErrorsCarryTheirStateToTheErrorResponse() {
        RuntimeException e = ErrorReporting.SERVER.translate(new WarpException(SqlState.DIVISION_BY_ZERO, "division by zero"));
        AvaticaRuntimeException server = (AvaticaRuntimeException) e;
        assertEquals("22012", server.getSqlState());
        assertEquals("division by zero", server.getErrorMessage());
    }

    @Test
    void unexpectedExceptionsAreInternalErrors() {
        for (ErrorReporting reporting : List.of(ErrorReporting.EMBEDDED, ErrorReporting.SERVER)) {
            RuntimeException e = reporting.translate(new IllegalStateException("boom"));
            String state = e instanceof AvaticaRuntimeException s ? s.getSqlState() : ((AvaticaClientRuntimeException) e).getSqlState();
            String message = e instanceof AvaticaRuntimeException s ? s.getErrorMessage() : e.getMessage();
            assertEquals("XX000", state, reporting.name());
            assertTrue(message.contains("boom"), message);
        }
    }

    @Test
    void flightErrorsNameTheirStateInTheDescription() {
        FlightRuntimeException missing = (FlightRuntimeException) ErrorReporting.FLIGHT.translate(
                new WarpException(SqlState.UNDEFINED_TABLE, "table nope does not exist"));
        assertEquals(CallStatus.INVALID_ARGUMENT.code(), missing.status().code());
        assertEquals("table nope does not exist (SQLSTATE 42P01)", missing.status().description());
        FlightRuntimeException bug = (FlightRuntimeException) ErrorReporting.FLIGHT.translate(new IllegalStateException("boom"));
        assertEquals(CallStatus.INTERNAL.code(), bug.status().code());
        assertTrue(bug.status().description().contains("boom") && bug.status().description().endsWith("(SQLSTATE XX000)"),
                bug.status().description());
        assertSame(bug, ErrorReporting.FLIGHT.translate(bug));
    }

    @Test
    void protocolExceptionsPassThrough() {
        NoSuchConnectionException missing = new NoSuchConnectionException("c1");
        assertSame(missing, ErrorReporting.SERVER.translate(missing));
    }
}
