package io.warpdb.storage;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The store of a durable catalog: segment and delete-vector files plus manifests in a
 * {@link DataDirectory}, and the {@link ChunkCache} of decoded chunks.
 *
 * <p>Commit protocol: data files are written and synced by the writer before it commits; the
 * commit syncs the data directory (making their names durable), then publishes the manifest
 * (write, sync, rename, sync the directory). Files of versions nobody uses any more are deleted
 * when their last reference goes; at open, anything the current manifest does not name is.
 */
final class DurableStore implements Store {
    private final DataDirectory dir;
    private final ChunkCache cache;
    private volatile boolean closed;
    /** Why commits are refused: after a failed publish the disk may hold either version. */
    private volatile String broken;

    private DurableStore(DataDirectory dir, ChunkCache cache) {
        this.dir = dir;
        this.cache = cache;
    }

    /** Opens and locks the directory (creating it when missing). */
    static DurableStore open(Path root, BufferAllocator allocator, StorageOptions options) {
        DataDirectory dir;
        try {
            dir = DataDirectory.open(root, options.synced());
        } catch (IOException e) {
            throw ioError("cannot open database directory " + root, e);
        }
        return new DurableStore(dir, new ChunkCache(allocator, options.cacheBytes()));
    }

    DataDirectory directory() {
        return dir;
    }

    ChunkCache cache() {
        return cache;
    }

    /**
     * The committed state (a new directory gets an empty version 0), after deleting every file
     * it does not name: leftovers of commits a crash interrupted and of versions whose deletion
     * a crash or a close cut short. The caller owns the references of its segments.
     */
    Manifest recover() {
        try {
            OptionalLong latest = dir.latestManifest();
            Manifest manifest;
            if (latest.isPresent()) {
                Path file = dir.manifestFile(latest.getAsLong());
                manifest = ManifestFile.read(file, dir.readAll(file), this);
            } else if (dir.hasDataFiles()) {
                throw new CorruptDataException(dir.root(), "the catalog", "data files but no manifest", null);
            } else {
                manifest = Manifest.empty();
                commit(manifest);
            }
            Set<Path> keep = new HashSet<>();
            keep.add(dir.manifestFile(manifest.version()));
            manifest.forEachSegment(ref -> {
                keep.add(dir.segmentFile(ref.segment().id()));
                if (ref.deletes().fileId() != 0) {
                    keep.add(dir.deleteVectorFile(ref.deletes().fileId()));
                }
            });
            dir.removeAllExcept(keep);
            return manifest;
        } catch (IOException e) {
            throw ioError("cannot read database directory " + dir.root(), e);
        }
    }

    DeleteVector loadDeleteVector(long id, String table, long cardinality) {
        return new DeleteVector(DeleteVectorFile.read(dir, id, table, cardinality), id, () -> discard(dir.deleteVectorFile(id)));
    }

    @Override
    public Segment persist(BuiltSegment built) {
        try {
            List<ChunkLocation> chunks = SegmentWriter.write(dir, built);
            return new FileSegment(this, built.id(), built.table(), built.rowCount(), built.zoneMaps(), built.types(), chunks);
        } catch (IOException e) {
            throw ioError("cannot write " + dir.segmentFile(built.id()), e);
        }
    }

    @Override
    public DeleteVector persistDeletes(long id, RoaringBitmap rows) {
        try {
            DeleteVectorFile.write(dir, id, rows);
        } catch (IOException e) {
            throw ioError("cannot write " + dir.deleteVectorFile(id), e);
        }
        return new DeleteVector(rows, id, () -> discard(dir.deleteVectorFile(id)));
    }

    @Override
    public void commit(Manifest next) {
        if (broken != null) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "database directory " + dir.root()
                    + " refuses commits after an I/O error (" + broken + "); close and reopen it");
        }
        byte[] bytes = ManifestFile.write(next);
        try {
            dir.syncData();
            dir.publishManifest(next.version(), bytes);
        } catch (IOException e) {
            broken = e.toString();
            throw ioError("cannot commit version " + next.version() + " in " + dir.root(), e);
        }
        // Snapshots of older versions live in memory; only the current manifest file is needed.
        if (next.version() > 0) {
            dir.deleteQuietly(dir.manifestFile(next.version() - 1));
        }
    }

    /** Deletes the file and cached chunks of a segment no version uses any more. */
    void discard(FileSegment segment, int columns) {
        cache.invalidate(segment.id(), columns);
        discard(dir.segmentFile(segment.id()));
    }

    /**
     * Deletes a file no version uses any more. After close, or after a failed publish (when
     * the disk may hold a manifest naming it), files stay for the next open to judge.
     */
    private void discard(Path file) {
        if (!closed && broken == null) {
            dir.deleteQuietly(file);
        }
    }

    @Override
    public CacheStats cacheStats() {
        return cache.stats();
    }

    @Override
    public void close() {
        closed = true;
        try {
            cache.close();
        } finally {
            try {
                dir.close();
            } catch (IOException e) {
                throw ioError("cannot unlock database directory " + dir.root(), e);
            }
        }
    }

    private static WarpException ioError(String what, IOException e) {
        return new WarpException(SqlState.INTERNAL_ERROR, what + ": " + e, e);
    }
}
