package io.warpdb.exec.gpu.partition;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.partition.Murmur3;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.Kernel;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.PrefixSum;
import java.util.ArrayList;
import java.util.List;

/**
 * Hash partitioning of a device table into parts by the murmur3 hash of its keys, with the shared-
 * memory scatter of seed 000 section 3.1 (partition/hash_partition.cu): every row lands in the
 * part the CPU's {@link HashPartitioner} gives it, and the rows of a part keep their input order.
 * A count pass builds a per-block histogram of parts in shared memory; the exclusive scan of the
 * histograms (part-major) gives each block where its rows of each part go; a scatter pass reorders
 * each tile by part in shared memory and writes each part's run contiguously, for every column.
 * One INTEGER/DATE or BIGINT-like key is hashed inside both passes; other keys (DOUBLE, BOOLEAN,
 * 128-bit DECIMAL, strings through a hash of each dictionary entry, computed here once per entry,
 * several keys) are first turned into a part per row.
 */
public final class GpuHashPartitioner {
    static final String MODULE = "partition/hash_partition";
    /** Most parts: the scatter's shared memory grows with them (10 ints a part), and the seed's scatter pays while they are moderate. */
    public static final int MAX_PARTS = 4096;
    /** Rows per tile of part_scatter (the kernel's SCATTER_TILE). */
    static final int TILE = GridSize.BLOCK * 8;
    private static final int WARPS = GridSize.BLOCK / 32;

    /** How the kernels find a row's part: the values match hash_partition.cu's KeyMode. */
    private enum KeyMode {
        LONG, INT, PART
    }

    /** Key column kinds of row_parts: the values match hash_partition.cu's KeyKind. */
    private enum KeyKind {
        LONG, INT, BYTE, DOUBLE, WIDE, CODE
    }

    private GpuHashPartitioner() {
    }

    /** A table's rows grouped by part: part p is rows [starts[p], starts[p + 1]) of {@code rows}. Owns the table. */
    public record Parts(DeviceTable rows, int[] starts) implements AutoCloseable {
        public int size(int part) {
            return starts[part + 1] - starts[part];
        }

        @Override
        public void close() {
            rows.close();
        }
    }

    /** The rows of {@code table} grouped into {@code parts} parts by the hash of its {@code keys} columns. */
    public static Parts partition(DeviceTable table, List<Integer> keys, int parts, DeviceWork work) {
        return partition(table, 0, table.rows(), keys, parts, Long.MAX_VALUE, work);
    }

    /**
     * As {@link #partition(DeviceTable, List, int, DeviceWork)} for rows [{@code from}, {@code from +
     * rows}) of {@code table} alone, read where they are: a chunk of a larger table, so that a chunk's
     * parts can travel while the next one is hashed.
     */
    public static Parts partition(DeviceTable table, int from, int rows, List<Integer> keys, int parts, DeviceWork work) {
        return partition(table, from, rows, keys, parts, Long.MAX_VALUE, work);
    }

    /** As {@link #partition(DeviceTable, int, int, List, int, DeviceWork)} with at most {@code maxBlocks} blocks (tests: many tiles per block). */
    static Parts partition(DeviceTable table, int from, int rows, List<Integer> keys, int parts, long maxBlocks, DeviceWork work) {
        if (parts < 1 || parts > MAX_PARTS) {
            throw new IllegalArgumentException("the GPU partitions into 1 to " + MAX_PARTS + " parts, not " + parts);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("partitioning needs a key column");
        }
        if (from < 0 || from > table.rows() - rows || (rows <= 0 && table.rows() > 0)) {
            throw new IllegalArgumentException("rows [" + from + ", " + ((long) from + rows) + ") are not a range of the table's " + table.rows());
        }
        if (rows == 0) {
            return new Parts(new DeviceTable(table.schema(), 0, table.columns().stream().map(DeviceColumn::share).toList()),
                    new int[parts + 1]);
        }
        KeyMode mode = mode(table, keys);
        DeviceColumn key = table.column(keys.get(0));
        DeviceBuffer rowParts = mode == KeyMode.PART ? rowParts(table, from, rows, keys, parts, work) : null;
        List<DeviceColumn> out = new ArrayList<>(table.columns().size());
        try {
            long[] scatter = new long[3 * 2 * table.columns().size()];
            int scatterColumns = 0;
            int maxWidth = 1;
            for (DeviceColumn column : table.columns()) {
                int width = DeviceColumn.width(column.type());
                maxWidth = Math.max(maxWidth, width);
                DeviceBuffer values = work.allocate((long) rows * width, "partitioned values");
                DeviceBuffer validity = null;
                try {
                    validity = column.validity() == null ? null : work.allocate(rows, "partitioned validity");
                } catch (RuntimeException e) {
                    values.close();
                    throw e;
                }
                out.add(new DeviceColumn(column.type(), rows, values, validity, column.dictionary()));
                scatterColumns = describe(scatter, scatterColumns, width, column.values().address() + (long) from * width, values);
                if (validity != null) {
                    scatterColumns = describe(scatter, scatterColumns, 1, column.validity().address() + from, validity);
                }
            }
            int sharedBytes = scatterSharedBytes(parts, maxWidth);
            Kernel scatterKernel = work.kernel(MODULE, "part_scatter");
            // As many blocks as the device holds at once (one wave), each a contiguous range of whole tiles.
            long tiles = ((long) rows + TILE - 1) / TILE;
            long resident = Math.min(maxBlocks, (long) work.device().smCount() * scatterKernel.residentBlocksPerSm(GridSize.BLOCK, sharedBytes));
            long tilesPerBlock = (tiles + resident - 1) / resident;
            int blocks = (int) ((tiles + tilesPerBlock - 1) / tilesPerBlock);
            long rowsPerBlock = tilesPerBlock * TILE;
            Object keyValues = mode == KeyMode.PART ? rowParts : key.values().pointer((long) from * DeviceColumn.width(key.type()));
            Object keyValidity = mode == KeyMode.PART || key.validity() == null ? null : key.validity().pointer(from);
            int counters = parts * blocks;
            int[] starts;
            try (DeviceBuffer counts = work.allocate((long) counters * Integer.BYTES, "partition counts");
                    DeviceBuffer offsets = work.allocate(((long) counters + 1) * Integer.BYTES, "partition offsets");
                    DeviceBuffer startsOnDevice = work.allocate(((long) parts + 1) * Integer.BYTES, "partition starts");
                    DeviceBuffer columns = work.upload(scatter, "partition columns")) {
                work.kernel(MODULE, "part_counts").launch(work.stream(), blocks, GridSize.BLOCK, parts * Integer.BYTES,
                        mode.ordinal(), keyValues, keyValidity, rows, parts, rowsPerBlock, counts);
                PrefixSum.exclusive(counts, offsets, counters, work);
                work.kernel(MODULE, "part_starts").launch(work.stream(), GridSize.strided(parts + 1L, work), GridSize.BLOCK, 0,
                        offsets, parts, blocks, startsOnDevice);
                scatterKernel.launch(work.stream(), blocks, GridSize.BLOCK, sharedBytes,
                        mode.ordinal(), keyValues, keyValidity, rows, parts, rowsPerBlock, offsets, columns, scatterColumns, maxWidth);
                starts = work.downloadInts(startsOnDevice, parts + 1);
            }
            return new Parts(new DeviceTable(table.schema(), rows, out), starts);
        } catch (RuntimeException e) {
            out.forEach(DeviceColumn::close);
            throw e;
        } finally {
            if (rowParts != null) {
                rowParts.close();
            }
        }
    }

    /** Adds a scatter column (width, input address, output address) at {@code at}; returns the next. */
    private static int describe(long[] scatter, int at, int width, long in, DeviceBuffer out) {
        scatter[3 * at] = width;
        scatter[3 * at + 1] = in;
        scatter[3 * at + 2] = out.address();
        return at + 1;
    }

    /**
     * part_scatter's dynamic shared memory: a tile of values of the widest column, the per-warp
     * ranks and the tile's and the block's offsets of every part, the block scan's warp sums and
     * a part number per slot of the tile.
     */
    static int scatterSharedBytes(int parts, int maxWidth) {
        return TILE * maxWidth + Integer.BYTES * (WARPS * parts + (parts + 1) + parts + WARPS) + Short.BYTES * TILE;
    }

    /** One key of a type that both passes hash themselves, or {@link KeyMode#PART}. */
    private static KeyMode mode(DeviceTable table, List<Integer> keys) {
        if (keys.size() > 1) {
            return KeyMode.PART;
        }
        KeyKind kind = kind(table.column(keys.get(0)).type());
        return kind == KeyKind.LONG ? KeyMode.LONG : kind == KeyKind.INT ? KeyMode.INT : KeyMode.PART;
    }

    private static KeyKind kind(DataType type) {
        if (type.isWideDecimal()) {
            return KeyKind.WIDE;
        }
        return switch (type.kind()) {
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> KeyKind.LONG;
            case INTEGER, DATE -> KeyKind.INT;
            case BOOLEAN -> KeyKind.BYTE;
            case DOUBLE -> KeyKind.DOUBLE;
            case VARCHAR, CHAR -> KeyKind.CODE;
        };
    }

    /** The part of each of rows [{@code from}, {@code from + rows}) by all its keys (row_parts). */
    private static DeviceBuffer rowParts(DeviceTable table, int from, int rows, List<Integer> keys, int parts, DeviceWork work) {
        long[] descriptors = new long[4 * keys.size()];
        List<DeviceBuffer> codeHashes = new ArrayList<>();
        try {
            for (int k = 0; k < keys.size(); k++) {
                DeviceColumn column = table.column(keys.get(k));
                KeyKind kind = kind(column.type());
                descriptors[4 * k] = kind.ordinal();
                descriptors[4 * k + 1] = column.values().address() + (long) from * DeviceColumn.width(column.type());
                descriptors[4 * k + 2] = column.validity() == null ? 0 : column.validity().address() + from;
                if (kind == KeyKind.CODE) {
                    DeviceBuffer hashes = work.upload(entryHashes(column.dictionary()), "partition string hashes");
                    codeHashes.add(hashes);
                    descriptors[4 * k + 3] = hashes.address();
                }
            }
            DeviceBuffer out = work.allocate((long) rows * Integer.BYTES, "row parts");
            try (DeviceBuffer keyColumns = work.upload(descriptors, "partition key columns")) {
                work.kernel(MODULE, "row_parts").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                        keyColumns, keys.size(), rows, parts, out);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        } finally {
            // Freed once the queued kernels have run (the pool holds blocks back until then).
            codeHashes.forEach(DeviceBuffer::close);
        }
    }

    /** The murmur3 hash of each dictionary entry, by code: the kernel hashes a string by its code's entry. */
    static int[] entryHashes(StringDictionary dictionary) {
        int[] hashes = new int[dictionary.size()];
        for (int code = 0; code < hashes.length; code++) {
            hashes[code] = Murmur3.hashString(dictionary.get(code), HashPartitioner.SEED);
        }
        return hashes;
    }
}
