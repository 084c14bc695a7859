package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
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
        for (ErrorReporting reporting : ErrorReporting.values()) {
            RuntimeException e = reporting.translate(new IllegalStateException("boom"));
            String state = e instanceof AvaticaRuntimeException s ? s.getSqlState() : ((AvaticaClientRuntimeException) e).getSqlState();
            String message = e instanceof AvaticaRuntimeException s ? s.getErrorMessage() : e.getMessage();
            assertEquals("XX000", state, reporting.name());
            assertTrue(message.contains("boom"), message);
        }
    }

    @Test
    void protocolExceptionsPassThrough() {
        NoSuchConnectionException missing = new NoSuchConnectionException("c1");
        assertSame(missing, ErrorReporting.SERVER.translate(missing));
    }
}
