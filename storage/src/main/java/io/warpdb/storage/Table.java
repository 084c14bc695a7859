package io.warpdb.storage;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A handle on a table of a {@link Catalog}: its identity, and the writes to it. Every write is
 * one atomic commit: readers see all of it or none of it. Writers build new segments and delete
 * vectors off to the side, outside the catalog's commit lock, and only publish them under it.
 */
public final class Table {
    /**
     * Column position that scans accept for the row-id pseudo column: a BIGINT NOT NULL
     * identifying a row within the scanned snapshot (segment id {@code << 32 |} row in segment),
     * what {@link #delete} and {@link #replace} take.
     */
    public static final int ROW_ID = -1;

    /** The field a scan reports for {@link #ROW_ID}. */
    public static final Field ROW_ID_FIELD = new Field("_row_id", DataType.BIGINT.withNullable(false));

    /** What a {@link #replace} did. */
    public record Counts(long deleted, long inserted) {
    }

    private final Catalog catalog;
    private final long id;
    private final String name;
    private final Schema schema;

    Table(Catalog catalog, TableState state) {
        this.catalog = catalog;
        this.id = state.id();
        this.name = state.name();
        this.schema = state.schema();
    }

    public String name() {
        return name;
    }

    public Schema schema() {
        return schema;
    }

    long id() {
        return id;
    }

    Catalog catalog() {
        return catalog;
    }

    /**
     * The committed state now; later writes do not change what it returns. It is readable while
     * the table exists and its rows are not removed by a later commit; prefer
     * {@link Catalog#snapshot()}, which keeps a version readable until closed.
     */
    public TableSource snapshot() {
        return new TableVersion(catalog, current(), null);
    }

    /** Rows not deleted, now. */
    public long rowCount() {
        return current().rowCount();
    }

    /** Stored bytes of all columns; see {@link ColumnSize#bytes()}. */
    public long bytes() {
        return columnSizes().stream().mapToLong(ColumnSize::bytes).sum();
    }

    /**
     * Bytes the table holds on the host now, beyond the catalog's shared cache of decoded chunks:
     * its encoded chunks in an in-memory catalog, nothing in a durable one (they are in files).
     */
    public long residentBytes() {
        return current().segments().stream().mapToLong(ref -> ref.segment().residentBytes()).sum();
    }

    /** How each column is stored now, in schema order. */
    public List<ColumnSize> columnSizes() {
        TableState state = current();
        List<ColumnSize> sizes = new ArrayList<>(schema.size());
        for (int c = 0; c < schema.size(); c++) {
            long bytes = 0;
            Set<String> encodings = new LinkedHashSet<>();
            for (SegmentRef ref : state.segments()) {
                bytes += ref.segment().bytes(c);
                encodings.add(ref.segment().encoding(c));
            }
            sizes.add(new ColumnSize(schema.field(c).name(), bytes, new ArrayList<>(encodings)));
        }
        return sizes;
    }

    /**
     * Appends every row of {@code rows} (whose columns match the table's, in order) as one
     * atomic commit: on any error, including a NOT NULL violation, nothing is added. The caller
     * keeps ownership of the stream; its batches are consumed.
     *
     * @return the number of rows appended
     */
    public long append(BatchStream rows) {
        return change(null, null, rows).inserted();
    }

    /**
     * Writes every row of {@code rows} (whose columns match the table's, in order) as segments
     * that no snapshot sees, kept in the catalog under the name {@code load} until
     * {@link Catalog#publishStaged} appends them to the table or {@link Catalog#discardStaged}
     * (or dropping the table) drops them: the first half of a load that a cluster commits on every
     * shard at once. Durable in a durable catalog: a crash does not lose them. Staging the same
     * load again adds to it, from several threads at once too (each call's segments join the load
     * in one commit of their own). A NOT NULL violation or any other error stages nothing of that
     * call. The caller keeps ownership of the stream.
     *
     * @return the number of rows staged by this call
     */
    public long stage(String load, BatchStream rows) {
        try (TableWrite write = new TableWrite(catalog, id, name, schema, null)) {
            long staged = write.insert(rows);
            write.stage(load);
            return staged;
        }
    }

    /**
     * Deletes the rows whose ids (column 0 of {@code rowIds}, as a scan of {@link #ROW_ID} over
     * {@code snapshot} returned them) are given, as one atomic commit.
     *
     * @return the number of rows deleted (ids given twice count once)
     * @throws WarpException SQLSTATE XX000 "concurrent modification of table T; retry" when a
     *                       commit since {@code snapshot} deleted rows of a segment this delete touches
     */
    public long delete(TableSource snapshot, BatchStream rowIds) {
        return change(Objects.requireNonNull(snapshot, "snapshot"), rowIds, null).deleted();
    }

    /** UPDATE: {@link #delete} plus {@link #append} in one atomic commit. */
    public Counts replace(TableSource snapshot, BatchStream rowIdsToDelete, BatchStream rowsToInsert) {
        return change(Objects.requireNonNull(snapshot, "snapshot"), rowIdsToDelete, rowsToInsert);
    }

    private TableState current() {
        return catalog.manifest().tableOrThrow(id, name);
    }

    /** The one write path: {@link TableWrite} builds the change, then commits it. */
    private Counts change(TableSource snapshot, BatchStream rowIds, BatchStream inserts) {
        TableState base = snapshot == null ? null : TableVersion.of(snapshot, this).state();
        try (TableWrite write = new TableWrite(catalog, id, name, schema, base)) {
            long deleted = rowIds == null ? 0 : write.delete(rowIds);
            long inserted = inserts == null ? 0 : write.insert(inserts);
            write.commit();
            return new Counts(deleted, inserted);
        }
    }

    @Override
    public String toString() {
        return "Table[" + name + "]";
    }
}
