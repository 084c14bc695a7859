package io.warpdb.tpch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * This process's memory: resident now and at its peak ({@code VmRSS} and {@code VmHWM} of
 * {@code /proc/self/status}, Linux only: empty elsewhere), which counts WarpDB, DuckDB and the
 * JVM together, and the Java heap in use and its limit.
 */
public record ProcessMemory(OptionalLong residentBytes, OptionalLong peakResidentBytes, long heapUsedBytes, long heapMaxBytes) {
    private static final Path PROC_STATUS = Path.of("/proc/self/status");

    /** Measured now. */
    public static ProcessMemory now() {
        Runtime runtime = Runtime.getRuntime();
        String status;
        try {
            status = Files.isReadable(PROC_STATUS) ? Files.readString(PROC_STATUS) : "";
        } catch (IOException e) {
            status = "";
        }
        return new ProcessMemory(statusBytes(status, "VmRSS"), statusBytes(status, "VmHWM"),
                runtime.totalMemory() - runtime.freeMemory(), runtime.maxMemory());
    }

    /** A {@code /proc/<pid>/status} field such as {@code VmHWM:   123456 kB}, in bytes; empty when absent. */
    static OptionalLong statusBytes(String status, String field) {
        for (String line : status.split("\n")) {
            if (line.startsWith(field + ":")) {
                String[] parts = line.substring(field.length() + 1).trim().split("\\s+");
                long value = Long.parseLong(parts[0]);
                return OptionalLong.of(parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? value * 1024 : value);
            }
        }
        return OptionalLong.empty();
    }

    /** One line for the console; sizes in MB (10^6 bytes). */
    public String format() {
        return String.format(Locale.ROOT, "process memory: resident %s, peak resident %s; Java heap in use %.1f MB of at most %.1f MB%n",
                megabytes(residentBytes), megabytes(peakResidentBytes), heapUsedBytes / 1e6, heapMaxBytes / 1e6);
    }

    private static String megabytes(OptionalLong bytes) {
        return bytes.isPresent() ? String.format(Locale.ROOT, "%.1f MB", bytes.getAsLong() / 1e6) : "not available";
    }
}
