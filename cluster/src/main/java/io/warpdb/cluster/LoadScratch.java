package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The coordinator's scratch database of one load (INSERT, COPY): a durable database in {@code
 * <data.dir>/loads/<load>} that holds the statement's rows encoded on disk while they are staged
 * on the shards, so that a load larger than the node's memory goes through. Closing it deletes
 * it; a node clears what a crash left there when it starts, so its files are not synced: nothing
 * of it must survive a crash, and a commit of it waits for no disk.
 */
final class LoadScratch implements AutoCloseable {
    private final Path directory;
    private final Database database;

    private LoadScratch(Path directory, Database database) {
        this.directory = directory;
        this.database = database;
    }

    /** The scratch database of {@code load}, allocating from {@code node}'s memory (the shard database's), to which its rows move. */
    static LoadScratch create(Path dataDir, String load, Database node) {
        Path directory = root(dataDir).resolve(load);
        return new LoadScratch(directory, Database.openWithin(directory, StorageOptions.defaults().unsynced(), node));
    }

    Database database() {
        return database;
    }

    /** Deletes the scratch databases of loads a crash interrupted. */
    static void clear(Path dataDir) {
        delete(root(dataDir));
    }

    @Override
    public void close() {
        try {
            database.close();
        } finally {
            delete(directory);
        }
    }

    private static Path root(Path dataDir) {
        return dataDir.resolve("loads");
    }

    private static void delete(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException | UncheckedIOException e) {
            throw new WarpException(SqlState.IO_ERROR, "cannot delete the load scratch " + directory + ": " + e.getMessage(), e);
        }
    }
}
