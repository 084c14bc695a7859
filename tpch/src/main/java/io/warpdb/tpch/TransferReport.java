package io.warpdb.tpch;

import java.util.List;
import java.util.Locale;

/**
 * Per query the bytes a GPU run copied host-to-device, next to the decoded bytes of the table
 * columns its scans brought into device memory: what the copies were when scans copied columns
 * decoded on the host, and what the first figure would be without decoding on the device. The
 * ratio is copied / decoded (below 1: encoded copies move less). The counts come from the GPU
 * executor (tools' {@code ColdGpuTarget}); this module only formats them.
 */
public record TransferReport(String executor, List<QueryTransfer> queries) {
    /**
     * One query's last run: {@code copiedBytes} host-to-device in all (scanned columns, inputs
     * from other executors, kernel arguments), {@code scannedColumnBytes} decoded.
     */
    public record QueryTransfer(String query, long copiedBytes, long scannedColumnBytes) {
        /** Copied over decoded; NaN when no column was scanned. */
        public double ratio() {
            return scannedColumnBytes == 0 ? Double.NaN : (double) copiedBytes / scannedColumnBytes;
        }
    }

    public TransferReport {
        queries = List.copyOf(queries);
    }

    public QueryTransfer total() {
        return new QueryTransfer("total", queries.stream().mapToLong(QueryTransfer::copiedBytes).sum(),
                queries.stream().mapToLong(QueryTransfer::scannedColumnBytes).sum());
    }

    /** A header naming the executor, a line per query and the total, for the console. */
    public String format() {
        StringBuilder s = new StringBuilder();
        s.append("host-to-device copies per query, last run on ").append(executor)
                .append(" (decoded_MB: the scanned columns decoded, which copying decoded columns would move)\n");
        s.append(String.format(Locale.ROOT, "%-5s %14s %14s %9s%n", "query", "copied_MB", "decoded_MB", "ratio"));
        queries.forEach(q -> s.append(line(q)));
        return s.append(line(total())).toString();
    }

    private static String line(QueryTransfer q) {
        return String.format(Locale.ROOT, "%-5s %14.1f %14.1f %9.3f%n", q.query(), q.copiedBytes() / 1e6,
                q.scannedColumnBytes() / 1e6, q.ratio());
    }
}
