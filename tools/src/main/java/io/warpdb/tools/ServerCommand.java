package io.warpdb.tools;

import io.warpdb.jdbc.Databases;
import io.warpdb.jdbc.ServerConfig;
import io.warpdb.jdbc.WarpServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code warpdb server}: serves an in-memory or durable database until the process is stopped. */
@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve a database to JDBC clients over HTTP or HTTPS (Avatica protobuf protocol) until stopped (Ctrl-C or"
                + " SIGTERM).",
                "Clients connect with jdbc:warpdb:remote:http://HOST:PORT (WarpDB's driver, which reports refused passwords and"
                        + " TLS failures with SQLSTATEs) or the stock jdbc:avatica:remote:url=http://HOST:PORT;serialization=protobuf.",
                "With --flight-port it also serves Arrow Flight SQL (columnar results) to jdbc:arrow-flight-sql://HOST:PORT (the"
                        + " stock Flight SQL JDBC driver), Python ADBC (adbc_driver_flightsql) and pyarrow.flight, with the same"
                        + " users, TLS, queue and query log.",
                "Settings come from --config FILE (a properties file whose keys are the long option names without dashes in"
                        + " front, e.g. 'port = 9000', 'auth = basic') and are overridden by the options given.",
                ""},
        footer = {"", "Authentication: with --auth basic or digest, clients give avatica_user and avatica_password and the users"
                + " file (Jetty's format: one 'user: password,warpdb' line per user; the role warpdb is required) decides. Add"
                + " ;authentication=BASIC (or DIGEST) to the URL.",
                "TLS: --keystore (PKCS12 or JKS with the server's key and certificate) makes the server speak HTTPS; clients"
                        + " then need the certificate in their trust store: truststore=FILE;truststore_password=...",
                "Flight SQL clients log in with the same users file (basic: user and password) and trust the same certificate"
                        + " (the JDBC driver: useEncryption=true&trustStore=FILE&trustStorePassword=...&useSystemTrustStore=false,"
                        + " a trust store holding the certificate as a trusted entry).",
                "Queueing: at most --max-concurrent-queries statements run at once; the others wait in arrival order, each up"
                        + " to --queue-timeout-seconds, then fail with SQLSTATE 53000."})
final class ServerCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "Read settings from this properties file first.")
    Path config;

    @Option(names = "--port", description = "Port to listen on; 0 picks a free one (default: " + ServerConfig.DEFAULT_PORT + ").")
    Integer port;

    @Option(names = "--host", description = "Address to listen on; 0.0.0.0 serves other hosts: use --auth and --keystore"
            + " then (default: " + ServerConfig.DEFAULT_HOST + ").")
    String host;

    @Option(names = "--name", description = "Name of the in-memory database served (default: warpdb).")
    String name;

    @Option(names = "--data", paramLabel = "DIR", description = "Serve the durable database in this directory (created when"
            + " missing) instead of an in-memory one.")
    String data;

    @Option(names = "--executor", description = "Executor new connections start with: auto, cpu or gpu (default: auto);"
            + " clients may change it with SET executor.")
    String executor;

    @Option(names = "--auth", paramLabel = "none|basic|digest", description = "Client authentication (default: none).")
    String auth;

    @Option(names = "--users", paramLabel = "FILE", description = "Users file for --auth.")
    Path users;

    @Option(names = "--keystore", paramLabel = "FILE", description = "Serve HTTPS with the key and certificate in this keystore.")
    Path keystore;

    @Option(names = "--keystore-password", paramLabel = "PASSWORD", description = "Password of the keystore (also from the"
            + " environment variable WARPDB_KEYSTORE_PASSWORD).")
    String keystorePassword;

    @Option(names = "--max-concurrent-queries", paramLabel = "N", description = "Statements that run at once (default: the"
            + " number of cores).")
    Integer maxConcurrentQueries;

    @Option(names = "--queue-timeout-seconds", paramLabel = "S", description = "How long a statement may wait for its turn"
            + " (default: 300).")
    Long queueTimeoutSeconds;

    @Option(names = "--query-log", paramLabel = "FILE", description = "Append a line per statement (start, connection,"
            + " duration, outcome or SQLSTATE, SQL) to this file.")
    Path queryLog;

    @Option(names = "--query-timeout-seconds", paramLabel = "S", description = "A statement running longer fails with"
            + " SQLSTATE 57014 (default: 0, no limit; a session may change it with SET query_timeout = '30s').")
    Long queryTimeoutSeconds;

    @Option(names = "--flight-port", paramLabel = "PORT", description = "Also serve Arrow Flight SQL on this port, e.g. 8815;"
            + " 0 picks a free one (default: none).")
    Integer flightPort;

    @Option(names = "--query-memory-limit", paramLabel = "SIZE", description = "Memory one statement may take, e.g. 2GB;"
            + " more fails with SQLSTATE 53200 and the server goes on (default: no limit; SET memory_limit changes it).")
    String queryMemoryLimit;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        ServerConfig settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        WarpServer server = WarpServer.start(settings);
        // SIGTERM and Ctrl-C run shutdown hooks: stop serving and free the database before the JVM goes.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            out.println("WarpDB server stopped.");
            out.flush();
        }, "warpdb-server-stop"));
        String database = settings.database().startsWith(Databases.MEMORY)
                ? settings.database().substring(Databases.MEMORY.length()) : settings.database();
        out.println("WarpDB server: database '" + database + "' at " + server.warpdbUrl() + " (Avatica clients: "
                + server.jdbcUrl() + ")");
        if (server.flightUrl() != null) {
            out.println("Arrow Flight SQL on port " + server.flightPort() + ": " + server.flightUrl() + " (grpc"
                    + (settings.keystore() != null ? "+tls" : "") + "://" + settings.host() + ":" + server.flightPort() + " for ADBC and pyarrow)");
        }
        out.flush();
        server.join();
        return 0;
    }

    /** The configuration file's settings, then the options given. */
    ServerConfig settings() {
        ServerConfig c = config == null ? ServerConfig.defaults() : ServerConfig.load(config, ServerConfig.defaults());
        if (host != null) {
            c = c.withHost(host);
        }
        if (port != null) {
            c = c.withPort(port);
        }
        if (data != null) {
            c = c.withDatabase(Databases.directory(data));
        } else if (name != null) {
            c = c.withDatabase(Databases.MEMORY + name);
        }
        if (executor != null) {
            c = c.withExecutor(executor);
        }
        if (auth != null || users != null) {
            ServerConfig.Authentication mode = auth == null ? c.authentication() : ServerConfig.Authentication.of(auth);
            c = c.withAuthentication(mode, users != null ? users : c.usersFile());
        }
        String password = keystorePassword != null ? keystorePassword : System.getenv("WARPDB_KEYSTORE_PASSWORD");
        if (keystore != null || password != null && c.keystore() != null) {
            c = c.withTls(keystore != null ? keystore : c.keystore(), password != null ? password : c.keystorePassword());
        }
        if (maxConcurrentQueries != null || queueTimeoutSeconds != null) {
            c = c.withQueryQueue(maxConcurrentQueries != null ? maxConcurrentQueries : c.maxConcurrentQueries(),
                    queueTimeoutSeconds != null ? Duration.ofSeconds(queueTimeoutSeconds) : c.queueTimeout());
        }
        if (queryLog != null) {
            c = c.withQueryLog(queryLog);
        }
        if (flightPort != null) {
            c = c.withFlightPort(flightPort);
        }
        if (queryTimeoutSeconds != null || queryMemoryLimit != null) {
            ServerConfig.QueryLimits limits = c.queryLimits();
            c = c.withQueryLimits(new ServerConfig.QueryLimits(
                    queryTimeoutSeconds != null ? queryTimeoutSeconds * 1000 : limits.timeoutMillis(),
                    queryMemoryLimit != null ? queryMemoryLimit : limits.memoryLimit()));
        }
        return c;
    }
}
