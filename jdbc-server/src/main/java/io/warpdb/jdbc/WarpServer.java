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
 * Serves one database over HTTP (or HTTPS) with Avatica's protobuf protocol, so that the stock
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
    private final WarpMeta meta;
    private final HttpServer http;
    private boolean closed;

    private WarpServer(ServerConfig config) {
        this.config = config;
        this.lease = Databases.shared().acquire(config.database());
        try {
            this.meta = WarpMeta.server(config);
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
        return server;
    }

    public int port() {
        return http.getPort();
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
            http.stop();
        } finally {
            releaseDatabase();
        }
    }

    private void releaseDatabase() {
        try {
            meta.close();
        } finally {
            lease.close();
        }
    }
}
