package io.warpdb.jdbc;

import java.io.File;
import java.util.List;
import org.apache.calcite.avatica.remote.Driver;
import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Serves one database over HTTP (or HTTPS) with Avatica's protobuf protocol, and, given a flight
 * port, over Arrow Flight SQL ({@link FlightEndpoint}) with the same users, TLS, queue and log, so that the stock
 * Avatica client reaches it at {@code jdbc:avatica:remote:url=http://HOST:PORT;serialization=protobuf}
 * (see {@link #jdbcUrl}). How it serves, who may connect and how many statements run at once
 * come from a {@link ServerConfig}. The database lives as long as the server (connections of
 * the embedded driver in the same JVM that name it share it).
 */
public final class WarpServer implements AutoCloseable {
    public static final int DEFAULT_PORT = ServerConfig.DEFAULT_PORT;
    public static final String DEFAULT_HOST = ServerConfig.DEFAULT_HOST;
    public static final String DEFAULT_DATABASE = Databases.MEMORY + "warpdb";

    private final ServerConfig config;
    private final Databases.Lease lease;
    private final StatementExecution execution;
    private final WarpMeta meta;
    private final HttpServer http;
    /** The Arrow Flight SQL endpoint; null when the configuration has no flight port. */
    private FlightEndpoint flight;
    private boolean closed;

    private WarpServer(ServerConfig config) {
        this.config = config;
        this.lease = Databases.shared().acquire(config.database());
        try {
            this.execution = StatementExecution.server(config);
            this.meta = WarpMeta.server(config, execution);
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
        // Avatica's builder knows only ports; its one connector gets the address here, before it starts.
        ServerCustomizer<Server> bind = server -> ((ServerConnector) server.getConnectors()[0]).setHost(config.host());
        HttpServer.Builder<Server> builder = new HttpServer.Builder<Server>()
                .withHandler(new LocalService(meta), Driver.Serialization.PROTOBUF)
                .withPort(config.port())
                .withServerCustomizers(List.of(bind), Server.class);
        String[] roles = {ServerConfig.ROLE};
        switch (config.authentication()) {
            case BASIC -> builder.withBasicAuthentication(config.usersFile().toString(), roles);
            case DIGEST -> builder.withDigestAuthentication(config.usersFile().toString(), roles);
            case NONE -> { }
        }
        if (config.keystore() != null) {
            File keystore = config.keystore().toFile();
            // The keystore also serves as the trust store Avatica asks for; clients present no certificates.
            builder.withTLS(keystore, config.keystorePassword(), keystore, config.keystorePassword());
        }
        this.http = builder.build();
    }

    /**
     * Starts serving the database at {@code database} ({@code mem:<name>} or a directory, see
     * {@link Databases#acquire}) on {@code host:port} without authentication or TLS; port 0 picks a free port.
     */
    public static WarpServer start(String host, int port, String database) {
        return start(ServerConfig.defaults().withHost(host).withPort(port).withDatabase(database));
    }

    /** Starts serving as {@code config} says. */
    public static WarpServer start(ServerConfig config) {
        WarpServer server = new WarpServer(config);
        try {
            server.http.start();
        } catch (RuntimeException e) {
            server.releaseDatabase();
            throw e;
        }
        if (config.flightPort() != ServerConfig.NO_FLIGHT) {
            try {
                server.flight = FlightEndpoint.start(config, server.lease.database(), server.execution);
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
        }
        return server;
    }

    public int port() {
        return http.getPort();
    }

    /** The port Arrow Flight SQL is served on; -1 when it is not served. */
    public int flightPort() {
        return flight == null ? -1 : flight.port();
    }

    /**
     * The URL of the stock Arrow Flight SQL JDBC driver (credentials and trust store go in its
     * properties: {@code user}, {@code password}, {@code trustStore}, {@code trustStorePassword}); null without Flight.
     */
    public String flightUrl() {
        return flight == null ? null
                : "jdbc:arrow-flight-sql://" + config.host() + ":" + flight.port() + "?useEncryption=" + (config.keystore() != null);
    }

    /** The URL a stock Avatica client connects with (credentials and trust store go in its properties). */
    public String jdbcUrl() {
        return "jdbc:avatica:remote:url=" + address() + ";serialization=protobuf" + authenticationOption();
    }

    /** The URL of WarpDB's driver, which reports failures to connect with SQLSTATEs ({@link RemoteConnector}). */
    public String warpdbUrl() {
        return WarpDriver.PREFIX + RemoteConnector.PREFIX + address() + authenticationOption();
    }

    private String address() {
        return (config.keystore() != null ? "https" : "http") + "://" + config.host() + ":" + port();
    }

    private String authenticationOption() {
        return config.authentication() == ServerConfig.Authentication.NONE ? "" : ";authentication=" + config.authentication();
    }

    /** Blocks until the server has stopped. */
    public void join() throws InterruptedException {
        http.join();
    }

    /** Stops accepting requests, closes the clients' connections and releases the database. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (flight != null) {
                flight.close();
            }
        } finally {
            try {
                http.stop();
            } finally {
                releaseDatabase();
            }
        }
    }

    private void releaseDatabase() {
        try {
            meta.close();
        } finally {
            try {
                execution.close();
            } finally {
                lease.close();
            }
        }
    }
}
