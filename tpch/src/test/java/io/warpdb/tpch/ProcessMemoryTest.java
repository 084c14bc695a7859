package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Reading /proc/self/status, and the console line. */
class ProcessMemoryTest {
    /** The head of a Linux /proc/self/status, as the kernel writes it (tabs after the colon). */
    private static final String STATUS = """
            Name:\tjava
            Umask:\t0022
            State:\tS (sleeping)
            VmPeak:\t12345678 kB
            VmSize:\t12000000 kB
            VmHWM:\t 2048000 kB
            VmRSS:\t 1024000 kB
            Threads:\t42
            """;

    @Test
    void readsResidentAndPeakInBytes() {
        assertEquals(OptionalLong.of(1024000L * 1024), ProcessMemory.statusBytes(STATUS, "VmRSS"));
        assertEquals(OptionalLong.of(2048000L * 1024), ProcessMemory.statusBytes(STATUS, "VmHWM"));
    }

    @Test
    void aMissingFieldIsEmpty() {
        assertEquals(OptionalLong.empty(), ProcessMemory.statusBytes(STATUS, "VmSwap"));
        assertEquals(OptionalLong.empty(), ProcessMemory.statusBytes("", "VmRSS"));
    }

    @Test
    void formatsMegabytesOrSaysWhatIsNotAvailable() {
        assertEquals("process memory: resident 1048.6 MB, peak resident 2097.2 MB; Java heap in use 500.0 MB of at most 4000.0 MB\n",
                new ProcessMemory(OptionalLong.of(1_048_576_000), OptionalLong.of(2_097_152_000), 500_000_000, 4_000_000_000L).format());
        assertEquals("process memory: resident not available, peak resident not available; Java heap in use 1.0 MB of at most 2.0 MB\n",
                new ProcessMemory(OptionalLong.empty(), OptionalLong.empty(), 1_000_000, 2_000_000).format());
    }

    @Test
    void measuresThisProcess() {
        ProcessMemory now = ProcessMemory.now();
        assertTrue(now.heapUsedBytes() > 0 && now.heapUsedBytes() <= now.heapMaxBytes());
        if (now.residentBytes().isPresent()) {
            assertTrue(now.peakResidentBytes().orElseThrow() >= now.residentBytes().getAsLong());
        }
    }
}
