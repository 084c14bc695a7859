package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.exec.DaemonThreads;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives the statements of a WarpDB connection a working {@code Statement.cancel()} and
 * {@code setQueryTimeout()}. Avatica's own statements only raise a flag on the client, which
 * neither the embedded session nor a server ever reads; here {@code cancel()} cancels the
 * statement the connection runs through a {@link Canceller} (directly in process, or with
 * {@code CANCEL QUERY} over a second connection to the server), and a query timeout schedules
 * that cancel, turning the failure into a {@link SQLTimeoutException} (SQLSTATE 57014).
 */
final class CancellableStatements {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("warpdb-query-timeouts"));

    /** Cancels what the connection with this id runs now. */
    interface Canceller {
        void cancel(String connectionId) throws SQLException;
    }

    private CancellableStatements() {
    }

    /** {@code connection} with statements whose cancel and timeout reach the session with id {@code connectionId}. */
    static Connection wrap(Connection connection, String connectionId, Canceller canceller) {
        return (Connection) Proxy.newProxyInstance(CancellableStatements.class.getClassLoader(), new Class<?>[] {Connection.class},
                new ConnectionHandler(connection, connectionId, canceller));
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private record ConnectionHandler(Connection target, String connectionId, Canceller canceller) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Object result = CancellableStatements.invoke(target, method, args);
            if (result instanceof Statement statement && method.getName().matches("createStatement|prepareStatement|prepareCall")) {
                Class<?> kind = statement instanceof CallableStatement ? CallableStatement.class
                        : statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
                return Proxy.newProxyInstance(CancellableStatements.class.getClassLoader(), new Class<?>[] {kind},
                        new StatementHandler(statement, (Connection) proxy, this));
            }
            return result;
        }
    }

    private static final class StatementHandler implements InvocationHandler {
        private final Statement target;
        private final Connection connection;
        private final ConnectionHandler owner;
        private volatile int timeoutSeconds;

        StatementHandler(Statement target, Connection connection, ConnectionHandler owner) {
            this.target = target;
            this.connection = connection;
            this.owner = owner;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            switch (name) {
                case "cancel" -> {
                    // The session first: Avatica's remote statement holds its monitor while it executes,
                    // so its own cancel() returns only once the statement has ended.
                    owner.canceller().cancel(owner.connectionId());
                    target.cancel();
                    return null;
                }
                case "setQueryTimeout" -> {
                    int seconds = (Integer) args[0];
                    if (seconds < 0) {
                        throw new SQLException("a query timeout cannot be negative: " + seconds, SqlState.INVALID_PARAMETER_VALUE.code());
                    }
                    timeoutSeconds = seconds;
                    return null;
                }
                case "getQueryTimeout" -> {
                    return timeoutSeconds;
                }
                case "getConnection" -> {
                    return connection;
                }
                default -> {
                    Object result = name.startsWith("execute") ? executeWithTimeout(method, args) : CancellableStatements.invoke(target, method, args);
                    return result instanceof ResultSet results ? TypedResults.wrap(results, (Statement) proxy) : result;
                }
            }
        }

        private Object executeWithTimeout(Method method, Object[] args) throws Throwable {
            int seconds = timeoutSeconds;
            if (seconds == 0) {
                return CancellableStatements.invoke(target, method, args);
            }
            AtomicBoolean fired = new AtomicBoolean();
            ScheduledFuture<?> timer = TIMER.schedule(() -> {
                fired.set(true);
                try {
                    owner.canceller().cancel(owner.connectionId());
                } catch (SQLException e) {
                    // The statement then runs on; the caller still gets its outcome.
                }
            }, seconds, TimeUnit.SECONDS);
            try {
                return CancellableStatements.invoke(target, method, args);
            } catch (SQLException e) {
                if (fired.get() && SqlState.QUERY_CANCELED.code().equals(e.getSQLState())) {
                    throw new SQLTimeoutException("the statement ran longer than its query timeout of " + seconds + " s",
                            SqlState.QUERY_CANCELED.code(), e);
                }
                throw e;
            } finally {
                timer.cancel(false);
            }
        }
    }
}
