package io.warpdb.storage;

/**
 * Rows written to a table as segments that no snapshot sees until {@link #publish()}: the first
 * half of a load that a cluster commits on every shard at once. Closing it unpublished discards
 * the segments; a process that dies before publishing leaves only files that the next open of a
 * durable catalog collects, as it collects every file no manifest references.
 */
public final class StagedAppend implements AutoCloseable {
    private final TableWrite write;
    private final long rows;
    private boolean published;

    StagedAppend(TableWrite write, long rows) {
        this.write = write;
        this.rows = rows;
    }

    /** The rows staged. */
    public long rows() {
        return rows;
    }

    /** Makes the staged rows part of the table in one commit; at most once. */
    public synchronized void publish() {
        if (published) {
            throw new IllegalStateException("already published");
        }
        write.commit();
        published = true;
    }

    @Override
    public synchronized void close() {
        write.close();
    }
}
