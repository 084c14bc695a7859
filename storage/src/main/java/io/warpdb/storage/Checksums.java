package io.warpdb.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * CRC32C framing of small files (manifests, delete vectors): an 8-byte magic, the body, and a
 * CRC32C of both as the last 4 bytes (big-endian). Column chunks are checked against the CRC
 * the manifest keeps for them.
 */
final class Checksums {
    private static final int MAGIC_BYTES = 8;

    private Checksums() {
    }

    static int crc32c(ByteBuffer bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.duplicate());
        return (int) crc.getValue();
    }

    /** {@code magic + body + crc32c(magic + body)}; the magic names the file type, 8 ASCII chars. */
    static byte[] seal(String magic, byte[] body) {
        ByteBuffer out = ByteBuffer.allocate(MAGIC_BYTES + body.length + Integer.BYTES);
        out.put(magicBytes(magic)).put(body);
        out.putInt(crc32c(ByteBuffer.wrap(out.array(), 0, out.position())));
        return out.array();
    }

    /**
     * The body of a sealed file.
     *
     * @throws IllegalArgumentException naming what is wrong, when the file is too short, of
     *                                  another type or fails its checksum
     */
    static ByteBuffer unseal(String magic, byte[] file) {
        if (file.length < MAGIC_BYTES + Integer.BYTES) {
            throw new IllegalArgumentException("truncated: " + file.length + " bytes");
        }
        if (!Arrays.equals(file, 0, MAGIC_BYTES, magicBytes(magic), 0, MAGIC_BYTES)) {
            throw new IllegalArgumentException("not a " + magic + " file (bad magic)");
        }
        int bodyEnd = file.length - Integer.BYTES;
        if (crc32c(ByteBuffer.wrap(file, 0, bodyEnd)) != ByteBuffer.wrap(file, bodyEnd, Integer.BYTES).getInt()) {
            throw new IllegalArgumentException("checksum mismatch");
        }
        return ByteBuffer.wrap(file, MAGIC_BYTES, bodyEnd - MAGIC_BYTES).slice();
    }

    private static byte[] magicBytes(String magic) {
        byte[] bytes = magic.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length != MAGIC_BYTES) {
            throw new IllegalArgumentException("magic must be " + MAGIC_BYTES + " characters: " + magic);
        }
        return bytes;
    }
}
