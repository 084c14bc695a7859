package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.DaemonThreads;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * The sessions of Flight SQL clients, each a {@link ConnectionState} like an Avatica
 * connection's. Flight SQL has no connections, so a session is named by a cookie: a call without
 * one (or with one whose session has gone) gets a new session and a {@code Set-Cookie} that the
 * Flight SQL JDBC driver and ADBC send back on later calls, so that SET and prepared statements
 * last as long as the client's connection. Statement handles and tickets name their session
 * themselves, so a client without cookies still reads what it ran. A client that goes away
 * without closing its session leaves it idle; sessions idle longer than the idle timeout are closed.
 */
final class FlightSessions implements FlightServerMiddleware.Factory<FlightSessions.Cookie>, AutoCloseable {
    static final FlightServerMiddleware.Key<Cookie> KEY = FlightServerMiddleware.Key.of("warpdb-session");
    static final String COOKIE = "warpdb_session";
    private static final String PREFIX = "flight-";

    private final Function<String, ConnectionState> opener;
    private final Duration idleTimeout;
    private final Map<String, Entry> open = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("warpdb-flight-sessions"));

    /** {@code opener} opens the session of a new id. */
    FlightSessions(Function<String, ConnectionState> opener, Duration idleTimeout) {
        this.opener = opener;
        this.idleTimeout = idleTimeout;
        long period = Math.max(1, idleTimeout.toSeconds() / 4);
        sweeper.scheduleAtFixedRate(this::closeIdle, period, period, TimeUnit.SECONDS);
    }

    private static final class Entry {
        final ConnectionState connection;
        volatile long lastUsed = System.nanoTime();

        Entry(ConnectionState connection) {
            this.connection = connection;
        }
    }

    /** The session a call belongs to, opened on first use. */
    ConnectionState session(CallContext context) {
        return session(context.getMiddleware(KEY).id);
    }

    /** The open session with this id; a new one if the id is the call's new cookie. */
    ConnectionState session(String id) {
        Entry e = open.computeIfAbsent(id, i -> {
            if (!i.startsWith(PREFIX)) {
                throw new WarpException(SqlState.CONNECTION_EXCEPTION, "no Flight SQL session " + i);
            }
            return new Entry(opener.apply(i));
        });
        e.lastUsed = System.nanoTime();
        return e.connection;
    }

    /** The open session with this id (from a statement handle or ticket); fails when it was closed. */
    ConnectionState existing(String id) {
        Entry e = open.get(id);
        if (e == null) {
            throw new WarpException(SqlState.CONNECTION_EXCEPTION, "the Flight SQL session " + id
                    + " is closed (it was closed by its client or idle longer than " + idleTimeout.toMinutes() + " min)");
        }
        e.lastUsed = System.nanoTime();
        return e.connection;
    }

    void close(String id) {
        Entry e = open.remove(id);
        if (e != null) {
            e.connection.close();
        }
    }

    private void closeIdle() {
        long now = System.nanoTime();
        for (Map.Entry<String, Entry> e : open.entrySet()) {
            if (now - e.getValue().lastUsed > idleTimeout.toNanos()) {
                close(e.getKey());
            }
        }
    }

    @Override
    public Cookie onCallStarted(CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
        String id = cookie(incomingHeaders);
        boolean known = id != null && open.containsKey(id);
        return new Cookie(known ? id : PREFIX + UUID.randomUUID(), !known);
    }

    private static String cookie(CallHeaders headers) {
        for (String header : headers.getAll("cookie") == null ? List.<String>of() : headers.getAll("cookie")) {
            for (String part : header.split(";")) {
                String[] kv = part.strip().split("=", 2);
                if (kv.length == 2 && kv[0].equals(COOKIE)) {
                    return kv[1];
                }
            }
        }
        return null;
    }

    /** Closes every session and stops the sweeper. */
    @Override
    public void close() {
        sweeper.shutdownNow();
        for (String id : List.copyOf(open.keySet())) {
            close(id);
        }
    }

    /** A call's session id; a new one is sent to the client as a cookie. */
    static final class Cookie implements FlightServerMiddleware {
        final String id;
        private final boolean isNew;

        Cookie(String id, boolean isNew) {
            this.id = id;
            this.isNew = isNew;
        }

        @Override
        public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {
            if (isNew) {
                outgoingHeaders.insert("set-cookie", COOKIE + "=" + id);
            }
        }

        @Override
        public void onCallCompleted(CallStatus status) {
        }

        @Override
        public void onCallErrored(Throwable err) {
        }
    }
}
