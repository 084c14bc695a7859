package io.warpdb.core.error;

/**
 * Every error WarpDB raises on purpose: a message for the user plus the SQLSTATE that JDBC
 * clients see on the resulting {@link java.sql.SQLException}.
 */
public class WarpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final SqlState state;

    public WarpException(SqlState state, String message) {
        super(message);
        this.state = state;
    }

    public WarpException(SqlState state, String message, Throwable cause) {
        super(message, cause);
        this.state = state;
    }

    public SqlState state() {
        return state;
    }

    public String sqlState() {
        return state.code();
    }

    @Override
    public String toString() {
        return "WarpException[" + state.code() + "]: " + getMessage();
    }
}
