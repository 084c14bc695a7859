package io.warpdb.jdbc;

import io.warpdb.core.exec.DaemonThreads;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightProducer.CallContext;

/**
 * Cancels a statement when the client cancels the Flight call that works for it: a deadline
 * passed, ADBC's or pyarrow's cancel, a closed channel. Flight's producer API only lets a call's
 * cancellation be polled, so a watch polls it while the call works; its cancel is repeated until
 * the call ends, in case the statement had not started its query yet.
 */
final class FlightCallCancellation implements AutoCloseable {
    private static final long POLL_MILLIS = 100;
    private static final ScheduledExecutorService POLLER = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("warpdb-flight-cancel"));

    private final ScheduledFuture<?> poll;

    private FlightCallCancellation(ScheduledFuture<?> poll) {
        this.poll = poll;
    }

    /** Watches {@code context}'s call, which works for {@code statement} of {@code connection}, until closed. */
    static FlightCallCancellation watch(CallContext context, ConnectionState connection, StatementState statement) {
        return new FlightCallCancellation(POLLER.scheduleWithFixedDelay(() -> {
            if (context.isCancelled()) {
                connection.cancel(statement);
            }
        }, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS));
    }

    @Override
    public void close() {
        poll.cancel(false);
    }
}
