package io.warpdb.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-query roofline at the end of an EXPLAIN ANALYZE file: each query's kernel time against
 * the time its device-memory traffic would take at the device's copy bandwidth. The figures are
 * the sums of the plan lines' {@code kernel=}, {@code dev_read=} and {@code dev_write=} (as printed:
 * 0.1 ms and 0.1 MB per node), and those bytes are estimated per node from the device columns it
 * consumed and produced, not counted per kernel launch: a ratio near 1 says the query moved its
 * columns about as fast as the memory allows, a large one that kernels spent their time elsewhere
 * (hash probes, sort passes, launches) or on traffic the estimate leaves out.
 */
final class RooflineTable {
    /** The H100's measured device-to-device copy bandwidth, in GB/s (10^9 bytes per second). */
    static final double H100_COPY_GIGABYTES_PER_SECOND = 3000;

    private static final Pattern KERNEL = Pattern.compile(" kernel=([0-9.]+) ms");
    private static final Pattern READ = Pattern.compile(" dev_read=([0-9.]+) MB");
    private static final Pattern WRITTEN = Pattern.compile(" dev_write=([0-9.]+) MB");

    private RooflineTable() {
    }

    /** One query's kernel time and device bytes read plus written (decimal MB). */
    record Row(String query, double kernelMillis, double deviceMegabytes) {
        /** The sums over {@code planLines}, the query's EXPLAIN ANALYZE lines. */
        static Row of(String query, List<String> planLines) {
            double kernel = 0;
            double megabytes = 0;
            for (String line : planLines) {
                kernel += sum(KERNEL, line);
                megabytes += sum(READ, line) + sum(WRITTEN, line);
            }
            return new Row(query, kernel, megabytes);
        }

        /** Bytes over kernel time, in GB/s (MB per ms); 0 without kernel time. */
        double achievedGigabytesPerSecond() {
            return kernelMillis == 0 ? 0 : deviceMegabytes / kernelMillis;
        }

        /** What the bytes take at {@code gigabytesPerSecond}, in ms. */
        double millisAt(double gigabytesPerSecond) {
            return deviceMegabytes / gigabytesPerSecond;
        }
    }

    private static double sum(Pattern pattern, String line) {
        Matcher m = pattern.matcher(line);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /**
     * The table of {@code rows} and their total, read against {@code gigabytesPerSecond}; no lines
     * when no row has kernel time or device bytes (the plans ran on the CPU).
     */
    static List<String> format(List<Row> rows, double gigabytesPerSecond) {
        List<String> lines = new ArrayList<>();
        if (rows.stream().allMatch(row -> row.kernelMillis() == 0 && row.deviceMegabytes() == 0)) {
            return lines;
        }
        lines.add(String.format(Locale.ROOT, "Roofline at %.0f GB/s (device bytes estimated per node from the columns it"
                + " consumed and produced):", gigabytesPerSecond));
        lines.add(String.format(Locale.ROOT, "%-16s %10s %12s %10s %12s %8s", "query", "kernel ms", "dev MB r+w", "GB/s",
                "at bw ms", "ratio"));
        double kernel = 0;
        double megabytes = 0;
        for (Row row : rows) {
            lines.add(line(row, gigabytesPerSecond));
            kernel += row.kernelMillis();
            megabytes += row.deviceMegabytes();
        }
        lines.add(line(new Row("total", kernel, megabytes), gigabytesPerSecond));
        return lines;
    }

    /** One row; the ratio is kernel time over the time at the bandwidth, "-" where no bytes were counted. */
    private static String line(Row row, double gigabytesPerSecond) {
        double floor = row.millisAt(gigabytesPerSecond);
        String ratio = floor == 0 ? "-" : String.format(Locale.ROOT, "%.1f", row.kernelMillis() / floor);
        return String.format(Locale.ROOT, "%-16s %10.1f %12.1f %10.0f %12.2f %8s", row.query(), row.kernelMillis(),
                row.deviceMegabytes(), row.achievedGigabytesPerSecond(), floor, ratio);
    }
}
