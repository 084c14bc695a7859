package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import java.nio.file.Path;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.server.UserIdentity;

/**
 * Flight SQL's basic authentication against the users file of the Avatica server, read by the
 * same Jetty login service (so passwords may be plain or Jetty's OBF:/MD5:/CRYPT: forms, and the
 * {@link ServerConfig#ROLE} role is required). Digest authentication has no Flight form; a server
 * configured with it checks Flight clients' passwords against the same file.
 */
final class FlightUsers implements BasicCallHeaderAuthenticator.CredentialValidator {
    private final HashLoginService users;

    private FlightUsers(HashLoginService users) {
        this.users = users;
    }

    static FlightUsers of(Path usersFile) {
        HashLoginService service = new HashLoginService("warpdb", usersFile.toString());
        try {
            service.start();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot read the users file " + usersFile + ": " + e.getMessage(), e);
        }
        return new FlightUsers(service);
    }

    @Override
    public CallHeaderAuthenticator.AuthResult validate(String username, String password) {
        UserIdentity user = users.login(username, password, null);
        if (user == null) {
            throw CallStatus.UNAUTHENTICATED.withDescription("user name or password not accepted for '" + username
                    + "' (SQLSTATE " + SqlState.INVALID_PASSWORD.code() + ")").toRuntimeException();
        }
        if (!user.isUserInRole(ServerConfig.ROLE, null)) {
            throw CallStatus.UNAUTHORIZED.withDescription("user '" + username + "' lacks the role " + ServerConfig.ROLE
                    + " (SQLSTATE " + SqlState.INVALID_AUTHORIZATION.code() + ")").toRuntimeException();
        }
        return () -> username;
    }
}
