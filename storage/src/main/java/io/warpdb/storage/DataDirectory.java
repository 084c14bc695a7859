package io.warpdb.storage;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of a durable catalog, and the only code that creates, syncs, renames or deletes
 * them. Layout:
 * <pre>
 *   LOCK                               held (fcntl lock) while a process has the catalog open
 *   manifest-00000000000000000042      the committed state, version 42 (highest number wins)
 *   data/0000000000000017.seg          a segment: the column chunks of one row group
 *   data/0000000000000023.del          a delete vector of one segment
 * </pre>
 * Data files are written once under their final name and synced before any manifest names
 * them; a manifest becomes current by an atomic rename, so a crash leaves either the old or the
 * new version, plus unreferenced files that {@link #removeAllExcept} clears on the next open.
 */
final class DataDirectory implements AutoCloseable {
    private static final String MANIFEST_PREFIX = "manifest-";
    private static final Pattern MANIFEST_NAME = Pattern.compile("manifest-(\\d{20})");
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path root;
    private final Path data;
    private final FileChannel lockChannel;
    private final FileLock lock;
    /** Whether files and directories are synced ({@link StorageOptions#synced}). */
    private final boolean synced;

    private DataDirectory(Path root, FileChannel lockChannel, FileLock lock, boolean synced) {
        this.root = root;
        this.synced = synced;
        this.data = root.resolve("data");
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Opens (creating if needed) the directory and locks it against other processes; {@code synced}: see {@link StorageOptions#synced}. */
    static DataDirectory open(Path root, boolean synced) throws IOException {
        Path absolute = root.toAbsolutePath();
        boolean created = Files.notExists(absolute);
        Files.createDirectories(absolute.resolve("data"));
        if (synced && created && absolute.getParent() != null) {
            syncDirectory(absolute.getParent()); // a new database directory's own name must survive a crash too
        }
        FileChannel channel = FileChannel.open(root.resolve("LOCK"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new WarpException(SqlState.CONNECTION_EXCEPTION, "database directory " + root
                    + " is in use by another process (or already open in this one)");
        }
        return new DataDirectory(root, channel, lock, synced);
    }

    Path root() {
        return root;
    }

    Path segmentFile(long id) {
        return data.resolve(String.format("%016d.seg", id));
    }

    Path deleteVectorFile(long id) {
        return data.resolve(String.format("%016d.del", id));
    }

    Path manifestFile(long version) {
        return root.resolve(String.format(MANIFEST_PREFIX + "%020d", version));
    }

    /** The highest committed manifest version, if any. */
    OptionalLong latestManifest() throws IOException {
        OptionalLong latest = OptionalLong.empty();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(root, MANIFEST_PREFIX + "*")) {
            for (Path f : files) {
                Matcher m = MANIFEST_NAME.matcher(f.getFileName().toString());
                if (m.matches()) {
                    long v = Long.parseLong(m.group(1));
                    latest = latest.isPresent() && latest.getAsLong() >= v ? latest : OptionalLong.of(v);
                }
            }
        }
        return latest;
    }

    boolean hasDataFiles() throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(data)) {
            return files.iterator().hasNext();
        }
    }

    /** Writes a new data file and syncs it; its directory entry is synced by {@link #syncData()}. */
    void writeNew(Path file, List<ByteBuffer> parts) throws IOException {
        // Opened before the try: when the name exists, fail without deleting that file.
        FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (out) {
            for (ByteBuffer part : parts) {
                ByteBuffer b = part.duplicate();
                while (b.hasRemaining()) {
                    out.write(b);
                }
            }
            if (synced) {
                out.force(true);
            }
        } catch (IOException | RuntimeException e) {
            deleteQuietly(file);
            throw e;
        }
    }

    /** Makes the names of data files written so far durable. */
    void syncData() throws IOException {
        if (synced) {
            syncDirectory(data);
        }
    }

    /**
     * Commits a manifest: write a temporary file, sync it, rename it to its final name
     * (atomically replacing nothing: versions only grow), then sync the directory so that the
     * rename itself survives a crash.
     */
    void publishManifest(long version, byte[] bytes) throws IOException {
        Path target = manifestFile(version);
        Path temp = root.resolve(target.getFileName() + TEMP_SUFFIX);
        Files.deleteIfExists(temp);
        writeNew(temp, List.of(ByteBuffer.wrap(bytes)));
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        if (synced) {
            syncDirectory(root);
        }
    }

    /** {@code length} bytes at {@code offset}; EOFException when the file is shorter. */
    ByteBuffer read(Path file, long offset, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(length);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            while (buf.hasRemaining()) {
                if (in.read(buf, offset + buf.position()) < 0) {
                    throw new EOFException("file ends before byte " + (offset + length) + " (truncated)");
                }
            }
        }
        return buf.flip();
    }

    byte[] readAll(Path file) throws IOException {
        return Files.readAllBytes(file);
    }

    /**
     * Deletes a file that no version references any more. A failure only leaves an orphan,
     * which the next open removes, so it is not worth failing a commit or a query for.
     */
    void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // left for removeAllExcept at the next open
        }
    }

    /**
     * Deletes every manifest and data file not in {@code keep}: older manifests, temporary
     * files and the data files of commits that never completed. Only safe while no writer runs,
     * i.e. when the catalog opens.
     */
    void removeAllExcept(Set<Path> keep) throws IOException {
        for (Path f : listFiles()) {
            if (!keep.contains(f)) {
                Files.deleteIfExists(f);
            }
        }
    }

    /** Manifests (temporary ones included) and data files now on disk. */
    List<Path> listFiles() throws IOException {
        List<Path> all = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(root, MANIFEST_PREFIX + "*")) {
            files.forEach(all::add);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(data)) {
            files.forEach(all::add);
        }
        return all;
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            lockChannel.close();
        }
    }
}
