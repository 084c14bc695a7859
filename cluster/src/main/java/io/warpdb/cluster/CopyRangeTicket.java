package io.warpdb.cluster;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a coordinator asks a node of a parallel COPY ({@link ParallelCopy}): load the byte range
 * {@code [from, to)} of {@code file} ({@code atRecordStart}: {@code from} starts a record, else
 * the range starts after the first line end at or after it; see {@code ingest.CsvRange}), parsed
 * with the COPY's {@code options}, into {@code table} under {@code load}, each row staged on the
 * node its distribution columns {@code keys} hash to (none: a replicated table, every row on every
 * node). The node first checks that its file has {@code size} bytes, as the coordinator's has.
 * Without a load, the ticket only asks the size of the node's file ({@link CopyRange#SEEN}).
 * As text: {@code copy-range } and the ticket as JSON.
 */
record CopyRangeTicket(String file, long size, String load, String table, Map<String, String> options, List<Integer> keys,
        long from, boolean atRecordStart, long to) {
    private static final String KIND = "copy-range";

    /** The question of the size {@code file} has on a node. */
    static CopyRangeTicket sizeOf(String file) {
        return new CopyRangeTicket(file, -1, null, null, Map.of(), List.of(), 0, true, 0);
    }

    boolean asksSize() {
        return load == null;
    }

    String text() {
        return TicketText.write(KIND, this);
    }

    /** The ticket {@code text} holds, or empty when it holds another request. */
    static Optional<CopyRangeTicket> parse(String text) {
        return TicketText.read(KIND, text, CopyRangeTicket.class);
    }
}
