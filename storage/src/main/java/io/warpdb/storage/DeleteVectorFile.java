package io.warpdb.storage;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * The file of a durable delete vector: magic {@code WARPDEL1}, the RoaringBitmap in its portable
 * serialization, CRC32C (see {@link Checksums}).
 */
final class DeleteVectorFile {
    private static final String MAGIC = "WARPDEL1";

    private DeleteVectorFile() {
    }

    /** Writes and syncs the file for a new delete vector. */
    static void write(DataDirectory dir, long id, RoaringBitmap rows) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(rows.serializedSizeInBytes());
        rows.serialize(new DataOutputStream(body));
        dir.writeNew(dir.deleteVectorFile(id), List.of(ByteBuffer.wrap(Checksums.seal(MAGIC, body.toByteArray()))));
    }

    /** Reads and verifies a delete vector whose manifest entry says it holds {@code cardinality} rows. */
    static RoaringBitmap read(DataDirectory dir, long id, String table, long cardinality) {
        Path file = dir.deleteVectorFile(id);
        try {
            ByteBuffer body = Checksums.unseal(MAGIC, dir.readAll(file));
            RoaringBitmap rows = new RoaringBitmap();
            rows.deserialize(body);
            if (rows.serializedSizeInBytes() != body.remaining() || rows.getLongCardinality() != cardinality) {
                throw new IllegalArgumentException("holds " + rows.getLongCardinality() + " rows, the manifest says " + cardinality);
            }
            return rows;
        } catch (IOException | RuntimeException e) {
            throw new CorruptDataException(file, CorruptDataException.ofTable(table), e.getMessage(), e);
        }
    }
}
