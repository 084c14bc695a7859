package io.warpdb.exec.gpu.exchange;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Predicate;

/**
 * Where a process's device memory is: its host (the kernel's boot id, which differs between
 * hosts and between boots of one), its process, its device (PCI bus id, the same in every process
 * of the host) and the CUDA IPC handle of its pool's arena.
 */
record IpcAddress(String bootId, long pid, String pciBusId, byte[] handle) {
    private static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";

    /** This host's boot id, or "" where the kernel does not say (then no peer reaches this process). */
    static String thisBootId() {
        try {
            return Files.readString(Path.of(BOOT_ID)).trim();
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Whether a process at {@code self} can map {@code peer}'s memory: the same host (a known boot
     * id), another process (a process cannot open its own handle), and a device that can read the
     * peer's ({@code canAccess} of its PCI bus id).
     */
    static boolean reaches(IpcAddress self, IpcAddress peer, Predicate<String> canAccess) {
        return !self.bootId.isEmpty() && self.bootId.equals(peer.bootId) && self.pid != peer.pid && canAccess.test(peer.pciBusId);
    }

    /** Which mapping the handle names: its bytes as hex. */
    String key() {
        return HexFormat.of().formatHex(handle);
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(bootId);
            out.writeLong(pid);
            out.writeUTF(pciBusId);
            out.writeShort(handle.length);
            out.write(handle);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static IpcAddress decode(byte[] encoded) {
        ByteBuffer in = ByteBuffer.wrap(encoded);
        String bootId = utf(in);
        long pid = in.getLong();
        String pci = utf(in);
        byte[] handle = new byte[in.getShort()];
        in.get(handle);
        return new IpcAddress(bootId, pid, pci, handle);
    }

    private static String utf(ByteBuffer in) {
        byte[] b = new byte[in.getShort() & 0xffff];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpcAddress a && a.bootId.equals(bootId) && a.pid == pid && a.pciBusId.equals(pciBusId)
                && Arrays.equals(a.handle, handle);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(handle);
    }

    @Override
    public String toString() {
        return "process " + pid + " on " + pciBusId + " of host " + bootId;
    }
}
