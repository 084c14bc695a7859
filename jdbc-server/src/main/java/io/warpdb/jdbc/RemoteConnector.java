package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import javax.net.ssl.SSLException;
import org.apache.calcite.avatica.AvaticaConnection;

/**
 * {@code jdbc:warpdb:remote:http[s]://HOST:PORT[;option=value...]}: a connection to a WarpDB
 * server through the Avatica remote driver, whose failures to connect (a RuntimeException with
 * an HTTP status or a TLS error inside) become SQLExceptions with a SQLSTATE and a message that
 * says what to do: 28P01 for a refused user or password, 28000 for a user without the
 * {@value ServerConfig#ROLE} role, 08006 for a TLS handshake that failed (usually a certificate
 * the client does not trust), 08001 for a server that cannot be reached. Options are Avatica's
 * ({@code authentication}, {@code avatica_user}, {@code avatica_password}, {@code truststore},
 * {@code truststore_password}, {@code http_response_timeout} in ms, ...). {@code Statement.cancel()} and query timeouts reach the server
 * through {@link CancellableStatements}.
 */
final class RemoteConnector {
    static final String PREFIX = "remote:";
    /**
     * How long the client waits for a statement's answer unless the URL says otherwise (Avatica's
     * {@code http_response_timeout}): an hour, not Avatica's three minutes, which a large COPY or
     * INSERT exceeds; the server's own query timeouts and cancellation bound the rest.
     */
    static final long RESPONSE_TIMEOUT_MILLIS = 3_600_000;

    private RemoteConnector() {
    }

    /** {@code target} is what follows {@code jdbc:warpdb:remote:}. */
    static Connection connect(String target, Properties info) throws SQLException {
        int options = target.indexOf(';');
        String address = options < 0 ? target : target.substring(0, options);
        String rest = options < 0 ? "" : target.substring(options);
        if (!address.startsWith("http://") && !address.startsWith("https://")) {
            throw new SQLException("a remote URL is jdbc:warpdb:remote:http[s]://HOST:PORT, not jdbc:warpdb:remote:" + target,
                    SqlState.UNABLE_TO_CONNECT.code());
        }
        String avatica = "jdbc:avatica:remote:url=" + address + (rest.contains("serialization=") ? "" : ";serialization=protobuf")
                + (rest.contains("http_response_timeout=") || info.containsKey("http_response_timeout") ? ""
                        : ";http_response_timeout=" + RESPONSE_TIMEOUT_MILLIS)
                + rest;
        try {
            AvaticaConnection connection = (AvaticaConnection) DriverManager.getConnection(avatica, info);
            return CancellableStatements.wrap(connection, connection.handle.id, id -> sendCancel(avatica, info, id));
        } catch (RuntimeException e) {
            throw translate(address, e);
        }
    }

    /** Cancels what connection {@code id} runs through a connection of its own: the first one is busy running it. */
    private static void sendCancel(String avatica, Properties info, String id) throws SQLException {
        try (Connection side = DriverManager.getConnection(avatica, info); Statement statement = side.createStatement()) {
            statement.executeUpdate(CancelRequest.sql(id));
        }
    }

    private static SQLException translate(String address, RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SSLException) {
                return new SQLException("TLS handshake with " + address + " failed (" + t.getMessage() + "); a client must trust"
                        + " the server's certificate: give its trust store with truststore=FILE;truststore_password=...",
                        SqlState.CONNECTION_FAILURE.code(), e);
            }
            if (t instanceof ConnectException || t instanceof UnknownHostException) {
                return new SQLException("cannot reach a WarpDB server at " + address + ": " + t.getMessage(),
                        SqlState.UNABLE_TO_CONNECT.code(), e);
            }
        }
        if (message.contains("HTTP/401")) {
            return new SQLException("the server at " + address + " refused the user name or password (HTTP 401); give them with"
                    + " avatica_user and avatica_password", SqlState.INVALID_PASSWORD.code(), e);
        }
        if (message.contains("HTTP/403")) {
            return new SQLException("the server at " + address + " knows the user but does not let it in (HTTP 403): the users"
                    + " file must give it the role " + ServerConfig.ROLE, SqlState.INVALID_AUTHORIZATION.code(), e);
        }
        return new SQLException("cannot connect to " + address + ": " + message, SqlState.CONNECTION_EXCEPTION.code(), e);
    }
}
