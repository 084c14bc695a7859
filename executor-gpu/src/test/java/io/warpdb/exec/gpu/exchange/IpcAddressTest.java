package io.warpdb.exec.gpu.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Runs without a GPU: addresses and block descriptors survive their frames, and a process pulls
 * device to device only from another process of its host whose device its own can read.
 */
class IpcAddressTest {
    private static final byte[] HANDLE = new byte[64];

    static {
        for (int i = 0; i < HANDLE.length; i++) {
            HANDLE[i] = (byte) (i * 7);
        }
    }

    private static final IpcAddress SELF = new IpcAddress("boot-a", 100, "0000:1b:00.0", HANDLE);

    @Test
    void anAddressSurvivesItsBytes() {
        IpcAddress decoded = IpcAddress.decode(SELF.encode());
        assertEquals(SELF, decoded);
        assertArrayEquals(HANDLE, decoded.handle());
        assertEquals(SELF.key(), decoded.key());
    }

    @Test
    void onlyAnotherProcessOfTheSameHostWithPeerAccessIsReached() {
        assertTrue(IpcAddress.reaches(SELF, new IpcAddress("boot-a", 200, "0000:2c:00.0", HANDLE), pci -> true), "same host, peer access");
        assertTrue(IpcAddress.reaches(SELF, new IpcAddress("boot-a", 200, "0000:1b:00.0", HANDLE), pci -> pci.equals("0000:1b:00.0")),
                "same host, same device");
        assertFalse(IpcAddress.reaches(SELF, new IpcAddress("boot-b", 200, "0000:2c:00.0", HANDLE), pci -> true), "another host");
        assertFalse(IpcAddress.reaches(SELF, new IpcAddress("boot-a", 100, "0000:2c:00.0", HANDLE), pci -> true), "the same process");
        assertFalse(IpcAddress.reaches(SELF, new IpcAddress("boot-a", 200, "0000:2c:00.0", HANDLE), pci -> false), "no peer access");
        IpcAddress unknownHost = new IpcAddress("", 100, "0000:1b:00.0", HANDLE);
        assertFalse(IpcAddress.reaches(unknownHost, new IpcAddress("", 200, "0000:2c:00.0", HANDLE), pci -> true), "no boot id");
    }

    @Test
    void aBlockDescriptorSurvivesItsFrame() {
        BlockDescriptor block = new BlockDescriptor(33, new int[] {8, 4, 1}, new long[] {256, 4096, 1 << 20}, new long[] {-1, 8192, -1});
        BlockDescriptor decoded = BlockDescriptor.decode(block.encode());
        assertEquals(33, decoded.rows());
        assertArrayEquals(block.widths(), decoded.widths());
        assertArrayEquals(block.values(), decoded.values());
        assertArrayEquals(block.validity(), decoded.validity());
        assertEquals(33L * (8 + 4 + 1 + 1), decoded.bytes());
    }

    @Test
    void aFrameOfAnotherLengthIsNoDescriptor() {
        ByteBuffer frame = new BlockDescriptor(1, new int[] {8}, new long[] {0}, new long[] {-1}).encode();
        ByteBuffer truncated = frame.slice(0, frame.remaining() - 1);
        assertThrows(IllegalArgumentException.class, () -> BlockDescriptor.decode(truncated));
    }
}
