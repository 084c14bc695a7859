package io.warpdb.jdbc;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a {@link WarpServer} serves: where, which database, who may connect (Avatica BASIC or
 * DIGEST authentication against a users file), TLS, how many queries run at once (the others
 * wait in a queue, up to a time limit), how long and with how much memory each query may run, and
 * where each statement is logged, and the port of the Arrow Flight SQL endpoint beside Avatica's, if any. Immutable; built
 * with the {@code with...} methods, from a properties file ({@link #load}), or both (flags
 * override the file).
 */
public record ServerConfig(String host, int port, String database, String executor, Authentication authentication,
        Path usersFile, Path keystore, String keystorePassword, int maxConcurrentQueries, Duration queueTimeout, Path queryLog,
        QueryLimits queryLimits, int flightPort) {
    public static final int DEFAULT_PORT = 8765;
    /** {@link #flightPort} when the server serves no Arrow Flight SQL. */
    public static final int NO_FLIGHT = -1;
    /** Without authentication the server only listens on the loopback interface unless told otherwise. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Role a user needs in the users file (Jetty's {@code user: password,role} format). */
    public static final String ROLE = "warpdb";

    /** Keys of a configuration file, each the long name of the matching {@code warpdb server} flag. */
    public static final Set<String> KEYS = Set.of("host", "port", "data", "name", "executor", "auth", "users", "keystore",
            "keystore-password", "max-concurrent-queries", "queue-timeout-seconds", "query-log", "query-timeout-seconds",
            "query-memory-limit", "flight-port");

    /**
     * What every connection's statements start with: a timeout in ms (0: none) and a memory limit
     * ("512MB"; null: the default of {@code warpdb.query.memoryLimit}). A session may change both
     * with SET query_timeout and SET memory_limit.
     */
    public record QueryLimits(long timeoutMillis, String memoryLimit) {
        public static final QueryLimits NONE = new QueryLimits(0, null);

        public QueryLimits {
            if (timeoutMillis < 0) {
                throw new IllegalArgumentException("query timeout must not be negative");
            }
        }
    }

    /** How clients prove who they are. */
    public enum Authentication {
        NONE, BASIC, DIGEST;

        /** By name, ignoring case. */
        public static Authentication of(String name) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("authentication must be none, basic or digest, not '" + name.trim() + "'", e);
            }
        }
    }

    public ServerConfig {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 0 and 65535");
        }
        if (flightPort < NO_FLIGHT || flightPort > 65535) {
            throw new IllegalArgumentException("flight port " + flightPort + " is not between 0 and 65535");
        }
        if (authentication != Authentication.NONE && usersFile == null) {
            throw new IllegalArgumentException(authentication + " authentication needs a users file (--users)");
        }
        if (usersFile != null && !Files.isReadable(usersFile)) {
            throw new IllegalArgumentException("cannot read the users file " + usersFile);
        }
        if (keystore != null && !Files.isReadable(keystore)) {
            throw new IllegalArgumentException("cannot read the keystore " + keystore);
        }
        if (keystore != null && keystorePassword == null) {
            throw new IllegalArgumentException("the keystore needs its password (--keystore-password)");
        }
        if (maxConcurrentQueries < 1) {
            throw new IllegalArgumentException("max concurrent queries must be at least 1, not " + maxConcurrentQueries);
        }
        if (queueTimeout.isNegative()) {
            throw new IllegalArgumentException("queue timeout must not be negative");
        }
    }

    /** Loopback, the default port, an in-memory database {@code warpdb}, no authentication or TLS, one query per core. */
    public static ServerConfig defaults() {
        return new ServerConfig(DEFAULT_HOST, DEFAULT_PORT, Databases.MEMORY + "warpdb", null, Authentication.NONE, null, null,
                null, Runtime.getRuntime().availableProcessors(), Duration.ofMinutes(5), null, QueryLimits.NONE, NO_FLIGHT);
    }

    /**
     * The settings of a properties file over {@code base}; an unknown key or a bad value is an
     * error naming the file and the key.
     */
    public static ServerConfig load(Path file, ServerConfig base) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the configuration file " + file + ": " + e.getMessage(), e);
        }
        Set<String> unknown = new TreeSet<>(p.stringPropertyNames());
        unknown.removeAll(KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(file + ": unknown setting(s) " + unknown + "; known: " + new TreeSet<>(KEYS));
        }
        ServerConfig c = base;
        try {
            String v;
            if ((v = p.getProperty("host")) != null) {
                c = c.withHost(v.trim());
            }
            if ((v = p.getProperty("port")) != null) {
                c = c.withPort(Integer.parseInt(v.trim()));
            }
            if ((v = p.getProperty("data")) != null) {
                c = c.withDatabase(Databases.directory(v.trim()));
            }
            if ((v = p.getProperty("name")) != null) {
                c = c.withDatabase(Databases.MEMORY + v.trim());
            }
            if ((v = p.getProperty("executor")) != null) {
                c = c.withExecutor(v.trim());
            }
            if ((v = p.getProperty("auth")) != null) {
                c = c.withAuthentication(Authentication.of(v),
                        p.getProperty("users") == null ? c.usersFile : Path.of(p.getProperty("users").trim()));
            }
            if ((v = p.getProperty("keystore")) != null) {
                c = c.withTls(Path.of(v.trim()), p.getProperty("keystore-password"));
            }
            if ((v = p.getProperty("max-concurrent-queries")) != null) {
                c = c.withQueryQueue(Integer.parseInt(v.trim()), c.queueTimeout);
            }
            if ((v = p.getProperty("queue-timeout-seconds")) != null) {
                c = c.withQueryQueue(c.maxConcurrentQueries, Duration.ofSeconds(Long.parseLong(v.trim())));
            }
            if ((v = p.getProperty("query-log")) != null) {
                c = c.withQueryLog(Path.of(v.trim()));
            }
            if ((v = p.getProperty("query-timeout-seconds")) != null) {
                c = c.withQueryLimits(new QueryLimits(Long.parseLong(v.trim()) * 1000, c.queryLimits.memoryLimit()));
            }
            if ((v = p.getProperty("query-memory-limit")) != null) {
                c = c.withQueryLimits(new QueryLimits(c.queryLimits.timeoutMillis(), v.trim()));
            }
            if ((v = p.getProperty("flight-port")) != null) {
                c = c.withFlightPort(Integer.parseInt(v.trim()));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        return c;
    }

    public ServerConfig withHost(String newHost) {
        return new ServerConfig(newHost, port, database, executor, authentication, usersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, queryLimits, flightPort);
    }

    public ServerConfig withPort(int newPort) {
        return new ServerConfig(host, newPort, database, executor, authentication, usersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, queryLimits, flightPort);
    }

    /** {@code mem:<name>} or a directory ({@link Databases#acquire}). */
    public ServerConfig withDatabase(String newDatabase) {
        return new ServerConfig(host, port, newDatabase, executor, authentication, usersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, queryLimits, flightPort);
    }

    /** The executor connections start with ({@code auto}, {@code cpu}, {@code gpu}); clients may change it. */
    public ServerConfig withExecutor(String newExecutor) {
        return new ServerConfig(host, port, database, newExecutor, authentication, usersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, queryLimits, flightPort);
    }

    public ServerConfig withAuthentication(Authentication newAuthentication, Path newUsersFile) {
        return new ServerConfig(host, port, database, executor, newAuthentication, newUsersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, queryLimits, flightPort);
    }

    /** Serve HTTPS with the key and certificate in {@code newKeystore} (JKS or PKCS12). */
    public ServerConfig withTls(Path newKeystore, String newKeystorePassword) {
        return new ServerConfig(host, port, database, executor, authentication, usersFile, newKeystore, newKeystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, queryLimits, flightPort);
    }

    public ServerConfig withQueryQueue(int newMaxConcurrentQueries, Duration newQueueTimeout) {
        return new ServerConfig(host, port, database, executor, authentication, usersFile, keystore, keystorePassword,
                newMaxConcurrentQueries, newQueueTimeout, queryLog, queryLimits, flightPort);
    }

    /** Append a line per statement (time, connection, duration, outcome, SQL) to this file. */
    public ServerConfig withQueryLog(Path newQueryLog) {
        return new ServerConfig(host, port, database, executor, authentication, usersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, newQueryLog, queryLimits, flightPort);
    }

    public ServerConfig withQueryLimits(QueryLimits newQueryLimits) {
        return new ServerConfig(host, port, database, executor, authentication, usersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, newQueryLimits, flightPort);
    }

    /** Also serve Arrow Flight SQL on this port (0: a free one; {@link #NO_FLIGHT}: none), with the same users and TLS. */
    public ServerConfig withFlightPort(int newFlightPort) {
        return new ServerConfig(host, port, database, executor, authentication, usersFile, keystore, keystorePassword,
                maxConcurrentQueries, queueTimeout, queryLog, queryLimits, newFlightPort);
    }
}
