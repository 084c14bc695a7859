package io.warpdb.sqltest;

import io.warpdb.jdbc.Databases;
import io.warpdb.jdbc.ServerConfig;
import io.warpdb.jdbc.WarpServer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Connections of the {@code flight} target: a WarpDB server serving a new in-memory database over
 * Arrow Flight SQL (on free ports of the loopback interface), and a connection to it through the
 * stock Arrow Flight SQL JDBC driver ({@code org.apache.arrow:flight-sql-jdbc-driver}) that stops
 * the server when it is closed.
 *
 * <p>Two faults of the stock driver (18.3.0) are worked around here, in the client, so that the
 * corpus checks WarpDB's answers rather than them: its plain {@code Statement} lists the columns
 * of an empty result twice ({@code ArrowFlightStatement.executeFlightInfoQuery} adds the result's
 * columns to a signature that already has them; its {@code PreparedStatement} does not), so plain
 * statements run here as prepared ones; and a server error reaches the caller of the prepared
 * statement's {@code execute} and of {@code ResultSet.next()} (an error sent while the rows
 * stream, say an overflow in the second branch of a UNION ALL) as an unchecked exception, which
 * becomes the SQLException JDBC asks for.
 */
final class FlightConnections {
    private FlightConnections() {
    }

    static Connection open(String database) throws SQLException {
        WarpServer server = WarpServer.start(ServerConfig.defaults().withPort(0).withFlightPort(0).withExecutor("cpu")
                .withDatabase(Databases.MEMORY + database));
        Connection connection;
        try {
            connection = DriverManager.getConnection(server.flightUrl(), new Properties());
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
        return proxy(Connection.class, (proxy, method, args) -> {
            if (method.getName().equals("createStatement") && method.getParameterCount() == 0) {
                return proxy(Statement.class, new PreparingStatement(connection));
            }
            try {
                return call(connection, method, args);
            } finally {
                if (method.getName().equals("close")) {
                    server.close();
                }
            }
        });
    }

    /** A plain statement that runs each SQL text as a prepared statement of the driver. */
    private static final class PreparingStatement implements java.lang.reflect.InvocationHandler {
        private final Connection connection;
        private PreparedStatement current;
        private int queryTimeout;

        PreparingStatement(Connection connection) {
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.matches("execute|executeQuery|executeUpdate|executeLargeUpdate") && args != null && args.length == 1) {
                closeCurrent();
                try {
                    current = connection.prepareStatement((String) args[0]);
                    current.setQueryTimeout(queryTimeout);
                    Object result = call(current, PreparedStatement.class.getMethod(name), null);
                    return result instanceof ResultSet rs ? rows(rs) : result;
                } catch (RuntimeException e) {
                    throw new SQLException(e.getMessage(), e);
                }
            }
            switch (name) {
                case "setQueryTimeout" -> {
                    queryTimeout = (Integer) args[0];
                    return null;
                }
                case "getQueryTimeout" -> {
                    return queryTimeout;
                }
                case "close" -> {
                    closeCurrent();
                    return null;
                }
                case "isClosed" -> {
                    return false;
                }
                case "getResultSet" -> {
                    return current == null ? null : rows(current.getResultSet());
                }
                default -> {
                    if (current == null) {
                        throw new SQLException("no statement has run yet: " + name);
                    }
                    return call(current, method, args);
                }
            }
        }

        private void closeCurrent() throws SQLException {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }

    /** {@code results} whose {@code next()} reports a streamed error as an SQLException. */
    private static ResultSet rows(ResultSet results) {
        if (results == null) {
            return null;
        }
        return proxy(ResultSet.class, (proxy, method, args) -> {
            try {
                return call(results, method, args);
            } catch (RuntimeException e) {
                if (method.getName().equals("next")) {
                    throw new SQLException(e.getMessage(), e);
                }
                throw e;
            }
        });
    }

    private static Object call(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, java.lang.reflect.InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(FlightConnections.class.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
