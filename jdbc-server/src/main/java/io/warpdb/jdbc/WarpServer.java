package io.warpdb.jdbc;

import java.util.List;
import org.apache.calcite.avatica.remote.Driver;
import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Serves one in-memory database over HTTP with Avatica's protobuf protocol, so that the stock
 * Avatica client reaches it at {@code jdbc:avatica:remote:url=http://HOST:PORT;serialization=protobuf}.
 * The database lives as long as the server (connections of the embedded driver in the same
 * JVM that name it share it).
 */
public final class WarpServer implements AutoCloseable {
    public static final int DEFAULT_PORT = 8765;
    /**
     * The server has no authentication yet, so by default it listens on the loopback
     * interface only; pass {@code 0.0.0.0} to serve other hosts.
     */
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final String DEFAULT_DATABASE = Databases.MEMORY + "warpdb";

    private final String host;
    private final Databases.Lease lease;
    private final WarpMeta meta;
    private final HttpServer http;
    private boolean closed;

    private WarpServer(String host, int port, String database) {
        this.host = host;
        this.lease = Databases.shared().acquire(database);
        this.meta = WarpMeta.server(database);
        // Avatica's builder knows only ports; its one connector gets the address here, before it starts.
        ServerCustomizer<Server> bind = server -> ((ServerConnector) server.getConnectors()[0]).setHost(host);
        this.http = new HttpServer.Builder<Server>()
                .withHandler(new LocalService(meta), Driver.Serialization.PROTOBUF)
                .withPort(port)
                .withServerCustomizers(List.of(bind), Server.class)
                .build();
    }

    /**
     * Starts serving the database at {@code database} ({@code mem:<name>} or a directory, see
     * {@link Databases#acquire}) on {@code host:port}; port 0 picks a free port.
     */
    public static WarpServer start(String host, int port, String database) {
        WarpServer server = new WarpServer(host, port, database);
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

    /** The URL a stock Avatica client connects with. */
    public String jdbcUrl() {
        return "jdbc:avatica:remote:url=http://" + host + ":" + port() + ";serialization=protobuf";
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
