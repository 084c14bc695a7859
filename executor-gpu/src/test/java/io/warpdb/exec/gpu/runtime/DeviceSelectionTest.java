package io.warpdb.exec.gpu.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code -Dwarpdb.gpu.devices}: which devices, in which order, and clear refusals, without a device. */
class DeviceSelectionTest {
    @Test
    void unsetOrBlankMeansEveryVisibleDevice() {
        assertEquals(List.of(0, 1, 2, 3), DeviceSelection.parse(null, 4));
        assertEquals(List.of(0), DeviceSelection.parse("  ", 1));
    }

    @Test
    void listedDevicesKeepTheirOrder() {
        assertEquals(List.of(0, 1), DeviceSelection.parse("0,1", 2));
        assertEquals(List.of(3, 1), DeviceSelection.parse(" 3 , 1 ", 8));
        assertEquals(List.of(0), DeviceSelection.parse("0", 1));
    }

    @Test
    void badListsAreRefusedWithTheReason() {
        assertMessage("device 1 does not exist (1 visible: 0..0)", "0,1", 1);
        assertMessage("device -1 does not exist", "-1", 2);
        assertMessage("'x' is not a device number", "0,x", 2);
        assertMessage("'' is not a device number", "0,", 2);
        // Each device has one pool and one context: naming it twice would give it two of each.
        assertMessage("device 0 is named twice", "0,0", 2);
        assertMessage("no CUDA device found", null, 0);
    }

    private static void assertMessage(String expected, String text, int visible) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeviceSelection.parse(text, visible));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
