package io.warpdb.jdbc;

import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.sql.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.GeneratedBearerTokenAuthenticator;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Arrow Flight SQL server beside a {@link WarpServer}'s Avatica one: on the configured flight
 * port and host, with the same users file (basic authentication; clients then carry the bearer
 * token it hands out), the same keystore for TLS, and the same statement queue and query log.
 * Its memory comes from the database's allocator, so that executor batches move into the
 * record batches it sends without copies.
 *
 * <p>The endpoint owns the executor its calls run on: gRPC reports the server terminated once its
 * transports are closed, while a call's handler may still be closing the batches it sent (Arrow
 * 18.3's {@code FlightServer.close} does not wait for them), so the endpoint waits for that
 * executor before it closes the allocator; otherwise the close could report those batches as leaked.
 */
final class FlightEndpoint implements AutoCloseable {
    /** How long a Flight SQL session that its client abandoned stays open. */
    static final Duration IDLE_SESSION_TIMEOUT = Duration.ofMinutes(30);
    /** How long closing waits for the calls still running after the server stopped accepting them. */
    private static final Duration CALLS_DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final BufferAllocator allocator;
    private final ExecutorService calls;
    private final FlightSqlService service;
    private final FlightServer server;

    private FlightEndpoint(BufferAllocator allocator, ExecutorService calls, FlightSqlService service, FlightServer server) {
        this.allocator = allocator;
        this.calls = calls;
        this.service = service;
        this.server = server;
    }

    static FlightEndpoint start(ServerConfig config, Database database, StatementExecution execution) {
        BufferAllocator allocator = database.allocator().newChildAllocator("flight-sql", 0, Long.MAX_VALUE);
        ExecutorService calls = DaemonThreads.cachedPool("flight-sql-call");
        FlightSqlService service = null;
        try {
            FlightSessions sessions = new FlightSessions(id -> new ConnectionState(id,
                    Databases.shared().acquire(config.database()), config.executor(), config.queryLimits()), IDLE_SESSION_TIMEOUT);
            service = new FlightSqlService(sessions, execution, allocator, WarpDriver.VERSION.productVersion);
            boolean tls = config.keystore() != null;
            Location location = tls ? Location.forGrpcTls(config.host(), config.flightPort())
                    : Location.forGrpcInsecure(config.host(), config.flightPort());
            FlightServer.Builder builder = FlightServer.builder(allocator, location, service)
                    .executor(calls)
                    .middleware(FlightSessions.KEY, sessions)
                    .middleware(FlightStrings.KEY, new FlightStrings());
            if (config.authentication() != ServerConfig.Authentication.NONE) {
                builder.headerAuthenticator(new GeneratedBearerTokenAuthenticator(
                        new BasicCallHeaderAuthenticator(FlightUsers.of(config.usersFile()))));
            }
            if (tls) {
                FlightTls pem = FlightTls.fromKeystore(config.keystore(), config.keystorePassword());
                builder.useTls(pem.certificateChainStream(), pem.privateKeyStream());
            }
            FlightServer server = builder.build();
            server.start();
            return new FlightEndpoint(allocator, calls, service, server);
        } catch (IOException e) {
            close(calls, service, allocator);
            throw new UncheckedIOException("cannot serve Arrow Flight SQL on " + config.host() + ":" + config.flightPort()
                    + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            close(calls, service, allocator);
            throw e;
        }
    }

    /** Waits for the calls still running, then closes every session and the allocator. */
    private static void close(ExecutorService calls, FlightSqlService service, BufferAllocator allocator) {
        try {
            calls.shutdown();
            if (!calls.awaitTermination(CALLS_DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                calls.shutdownNow();
            }
        } catch (InterruptedException e) {
            calls.shutdownNow();
            Thread.currentThread().interrupt();
        } finally {
            try {
                if (service != null) {
                    service.close();
                }
            } finally {
                allocator.close();
            }
        }
    }

    int port() {
        return server.getPort();
    }

    /** Stops serving (calls still running are cut off after a grace period), closes every session and the allocator. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close(calls, service, allocator);
        }
    }
}
