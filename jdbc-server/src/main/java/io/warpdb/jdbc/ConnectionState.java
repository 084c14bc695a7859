package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.PreparedStatement;
import io.warpdb.sql.Session;
import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apache.calcite.avatica.ConnectionPropertiesImpl;
import org.apache.calcite.avatica.Meta;

/**
 * One client connection: its session on a database, its statements and its JDBC connection
 * properties. A session runs one statement at a time, so all work on the session is
 * serialized here. Avatica's protocol has no cancel request, so the work running now is cancelled
 * by closing its statement or connection, or by {@link #cancelRunning(String)} with the
 * connection's id (which {@code CANCEL QUERY 'id'} from another connection reaches; see
 * {@link CancelRequest}).
 */
final class ConnectionState implements AutoCloseable {
    /** Every open connection of this JVM by id, embedded or served, for cancel requests. */
    private static final Map<String, ConnectionState> OPEN = new ConcurrentHashMap<>();

    final String id;
    private final Databases.Lease database;
    private final Session session;
    private final Meta.ConnectionProperties properties;
    private final Map<Integer, StatementState> statements = new ConcurrentHashMap<>();
    private final AtomicInteger nextStatementId = new AtomicInteger(1);
    private final ReentrantLock lock = new ReentrantLock();
    private volatile StatementState running;
    private boolean closed;

    /**
     * Opens a session on the leased database, taking it over; {@code executor} may be null for the
     * default. Its statements start with the given limits.
     */
    ConnectionState(String id, Databases.Lease database, String executor, ServerConfig.QueryLimits limits) {
        this.id = id;
        this.database = database;
        try {
            this.session = database.database().newSession();
            if (executor != null) {
                session.setExecutor(executor);
            }
            session.setQueryTimeoutMillis(limits.timeoutMillis());
            if (limits.memoryLimit() != null) {
                session.setMemoryLimit(limits.memoryLimit());
            }
            OPEN.put(id, this);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        this.properties = new ConnectionPropertiesImpl(true, false, Connection.TRANSACTION_NONE,
                database.database().name(), CatalogMetadata.SCHEMA);
    }

    Session session() {
        return session;
    }

    CatalogMetadata metadata() {
        return new CatalogMetadata(database.database(), session);
    }

    /**
     * The connection's JDBC properties. WarpDB can change none of them: auto-commit is on
     * because there are no transactions, there is one catalog and one schema, and nothing is
     * read-only. Avatica gives a server no way to refuse a change, so the reply to one states
     * what holds, and that is what the client reports from then on.
     */
    Meta.ConnectionProperties properties() {
        return properties;
    }

    StatementState newStatement(PreparedStatement prepared) {
        StatementState statement = new StatementState(nextStatementId.getAndIncrement(), prepared);
        statements.put(statement.id, statement);
        return statement;
    }

    /** The statement with this id, or null. */
    StatementState statement(int statementId) {
        return statements.get(statementId);
    }

    /**
     * Runs {@code work} for {@code statement} (null for connection-level work) while no other
     * work of this session runs. A statement or connection closed while the work waited for
     * its turn fails it, so that no result is opened where nobody will close it.
     */
    <T> T exclusive(StatementState statement, Supplier<T> work) {
        lock.lock();
        try {
            if (closed) {
                throw new WarpException(SqlState.CONNECTION_EXCEPTION, "connection " + id + " is closed");
            }
            running = statement;
            // After running is set: a cancel sees either the flag's check to come or the work running (both volatile).
            if (statement != null && statement.cancelled) {
                throw new WarpException(SqlState.QUERY_CANCELED, "statement " + statement.id + " was cancelled");
            }
            if (statement != null && statements.get(statement.id) != statement) {
                throw new WarpException(SqlState.INVALID_SQL_STATEMENT, "statement " + statement.id + " is closed");
            }
            return work.get();
        } finally {
            running = null;
            lock.unlock();
        }
    }

    void closeStatement(int statementId) {
        StatementState statement = statements.remove(statementId);
        if (statement == null) {
            return;
        }
        if (running == statement) {
            session.cancel();
        }
        lock.lock();
        try {
            statement.closeResult();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cancels {@code statement} without waiting: what it runs now fails with SQLSTATE 57014, and
     * so does any work for it after (a Flight SQL stream's next batch). Closing it stays its owner's.
     */
    void cancel(StatementState statement) {
        statement.cancelled = true;
        if (running == statement) {
            session.cancel();
        }
    }

    /** Closes the open result of a statement that stays open (a prepared one, to run again); nothing if it was closed. */
    void closeResult(int statementId) {
        lock.lock();
        try {
            StatementState statement = statements.get(statementId);
            if (statement != null) {
                statement.closeResult();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Cancels the statement that connection {@code connectionId} runs now (it fails with SQLSTATE
     * 57014); false when no such connection is open or it runs nothing.
     */
    static boolean cancelRunning(String connectionId) {
        ConnectionState c = OPEN.get(connectionId);
        if (c == null || c.running == null) {
            return false;
        }
        c.session.cancel();
        return true;
    }

    /** Cancels what runs now, closes every statement's result and the session, and releases the database. */
    @Override
    public void close() {
        OPEN.remove(id, this);
        if (running != null) {
            session.cancel();
        }
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            statements.values().forEach(StatementState::closeResult);
            statements.clear();
            session.close();
        } finally {
            lock.unlock();
        }
        database.close();
    }
}
