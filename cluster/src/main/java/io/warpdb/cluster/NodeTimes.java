package io.warpdb.cluster;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Where a gathered fragment's time went on one node (EXPLAIN ANALYZE): opening its plan (planning
 * it, and for an executor that computes when its plan opens, as the GPU's does, all its work),
 * waiting for and reading the rows other nodes sent it (its inputs), and running its plan while
 * the caller took its rows. A node's UCX fetch carries them in its end frame; over Flight they are not
 * reported.
 */
record NodeTimes(long openNanos, long inputsNanos, long runNanos) {
    private static final int BYTES = 3 * Long.BYTES;

    /** A stream of a fragment's rows that knows, once read to its end, its node's times (null when it does not). */
    interface Reported {
        NodeTimes nodeTimes();
    }

    /** The end frame's payload of a fetch of {@code rows}: their node's times, or nothing when they report none. */
    static ByteBuffer endPayload(Object rows) {
        NodeTimes times = rows instanceof Reported r ? r.nodeTimes() : null;
        ByteBuffer payload = ByteBuffer.allocate(times == null ? 0 : BYTES);
        if (times != null) {
            payload.putLong(times.openNanos).putLong(times.inputsNanos).putLong(times.runNanos).flip();
        }
        return payload;
    }

    /** The times an end frame's payload carries, or null when it carries none. */
    static NodeTimes decode(ByteBuffer payload) {
        if (payload == null || payload.remaining() < BYTES) {
            return null;
        }
        int at = payload.position();
        return new NodeTimes(payload.getLong(at), payload.getLong(at + Long.BYTES), payload.getLong(at + 2 * Long.BYTES));
    }

    /** As EXPLAIN ANALYZE shows them for {@code node}, whose rows the coordinator had all {@code endNanos} after it asked for them. */
    String text(String node, long endNanos) {
        return String.format(Locale.ROOT, "%s: open=%.1f ms, wait for inputs=%.1f ms, run=%.1f ms, all rows in at %.1f ms", node,
                openNanos / 1e6, inputsNanos / 1e6, runNanos / 1e6, endNanos / 1e6);
    }
}
