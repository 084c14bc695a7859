package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.DeviceParts;

/** A node's rows to itself under one exchange id, whatever the transport: the batches go into its own inbox, no wire, no copy. */
final class LocalOutbox implements Exchange.Outbox {
    private final ExchangeInbox inbox;
    private final String exchange;
    private final String self;
    private boolean ended;

    LocalOutbox(ExchangeInbox inbox, String exchange, String self) {
        this.inbox = inbox;
        this.exchange = exchange;
        this.self = self;
    }

    @Override
    public long put(Batch batch) {
        inbox.deliver(exchange, self, batch);
        return 0;
    }

    /** Its own part stays on the device: a copy into the inbox, device to device. */
    @Override
    public boolean takesDevice() {
        return true;
    }

    @Override
    public long putDevice(DeviceParts parts, int part) {
        inbox.deliver(exchange, self, parts.take(part));
        return 0;
    }

    @Override
    public void finish() {
        ended = true;
        inbox.finish(exchange, self);
    }

    @Override
    public void fail(WarpException error) {
        ended = true;
        inbox.fail(exchange, self, error);
    }

    @Override
    public void close() {
        if (!ended) {
            fail(new WarpException(SqlState.CONNECTION_FAILURE, "node " + self + " stopped sending rows of exchange " + exchange));
        }
    }
}
