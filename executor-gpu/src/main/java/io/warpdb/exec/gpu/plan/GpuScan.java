package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.data.encoded.EncodedSegment;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.exchange.ResidentSource;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceColumnCache;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.decode.DeviceDecoder;
import io.warpdb.exec.gpu.exchange.DeviceRows;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.runtime.TransferCounters;
import io.warpdb.exec.gpu.setop.GpuUnionAll;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A scan's table columns in device memory: those a previous query left in the {@link
 * DeviceColumnCache}; the others, when the source offers them as stored ({@link
 * TableSource#encodedSegments}), copied to the device encoded and decoded there ({@link
 * DeviceDecoder}, its copies overlapping its kernels), else read as host batches and copied in
 * ({@link HostToDevice}: in-memory tables, deleted rows, sources of other kinds).
 *
 * <p>Zone maps prune segments before anything moves when none of the scan's columns is cached
 * (cached columns are whole, and so must be the columns read next to them). Columns are cached
 * when the source has a data version and they are whole: when the predicates keep more than half
 * the rows, the whole columns are read instead, for the next query; when they keep fewer, only the
 * kept segments travel and nothing is cached.
 */
final class GpuScan {
    private final ExecContext context;
    private final DeviceColumnCache cache;

    GpuScan(ExecContext context, DeviceColumnCache cache) {
        this.context = context;
        this.cache = cache;
    }

    /** The scan's columns, those not cached read and copied in on {@code work}. */
    DeviceTable run(ScanNode scan, DeviceWork work) {
        TableSource table = scan.table();
        if (table instanceof ResidentSource source && !source.resident().isEmpty()
                && source.resident().stream().allMatch(r -> r instanceof DeviceRows)) {
            return resident(scan, source, work);
        }
        Object version = table.dataVersion();
        int n = scan.columns().size();
        DeviceColumn[] columns = new DeviceColumn[n];
        List<Integer> missing = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                columns[i] = version == null ? null : cache.get(new DeviceColumnCache.Key(version, scan.columns().get(i)));
                if (columns[i] == null) {
                    missing.add(i);
                }
            }
            if (!missing.isEmpty()) {
                List<Integer> tableColumns = missing.stream().map(scan.columns()::get).toList();
                try (Read read = read(scan, tableColumns, missing.size() < n)) {
                    boolean whole = read.rows() == table.rowCount();
                    NodeStats stats = context.stats(scan);
                    long copiedBefore = work.bytesToDevice();
                    long deviceBytes = 0;
                    for (int m = 0; m < missing.size(); m++) {
                        context.checkCancelled();
                        int i = missing.get(m);
                        columns[i] = read.column(m, scan.schema().type(i), work);
                        deviceBytes += columns[i].bytes();
                        work.countDeviceWritten(columns[i].dataBytes());
                    }
                    read.note(stats, work.bytesToDevice() - copiedBefore, deviceBytes);
                    TransferCounters.addScannedColumnBytes(deviceBytes);
                    if (!whole) {
                        stats.note("zone maps skipped " + (table.rowCount() - read.rows()) + " of " + table.rowCount() + " rows");
                    }
                    if (version != null && whole) {
                        // Other queries read cached columns on their own streams: they must be complete first.
                        work.synchronize();
                        for (int m = 0; m < missing.size(); m++) {
                            cache.put(new DeviceColumnCache.Key(version, tableColumns.get(m)), columns[missing.get(m)]);
                        }
                    }
                }
            }
            int rows = n == 0 ? (int) table.rowCount() : columns[0].rows();
            return new DeviceTable(scan.schema(), rows, List.of(columns));
        } catch (RuntimeException e) {
            DeviceColumn.closeAll(columns);
            throw e;
        }
    }

    /**
     * Rows an exchange left on this device, read in place (shared when they are all the rows,
     * else copied device to device into one table with the host rows uploaded next to them).
     */
    private DeviceTable resident(ScanNode scan, ResidentSource source, DeviceWork work) {
        List<DeviceTable> pieces = new ArrayList<>();
        try {
            long residentBytes = 0;
            for (ResidentRows rows : source.resident()) {
                residentBytes += rows.bytes();
                try (DeviceTable all = ((DeviceRows) rows).table()) {
                    pieces.add(new DeviceTable(scan.schema(), all.rows(), scan.columns().stream().map(c -> all.column(c).share()).toList()));
                }
            }
            List<Batch> host = readAll(source.scanHost(scan.columns(), context.allocator()), context);
            try {
                if (!host.isEmpty()) {
                    pieces.add(HostToDevice.upload(scan.schema(), host, work));
                }
            } finally {
                host.forEach(Batch::close);
            }
            context.stats(scan).note(String.format(Locale.ROOT, "resident on gpu: %d of %d pieces, %.1f MB", source.resident().size(),
                    pieces.size(), residentBytes / 1e6));
            if (pieces.size() == 1) {
                return pieces.remove(0);
            }
            return GpuUnionAll.concatenate(scan.schema(), pieces, work);
        } finally {
            pieces.forEach(DeviceTable::close);
        }
    }

    /**
     * The missing columns as the source gives them: the segments the predicates keep unless some
     * column is cached, or unless they keep most rows of a source whose columns are cached.
     */
    private Read read(ScanNode scan, List<Integer> tableColumns, boolean anyCached) {
        TableSource table = scan.table();
        List<ColumnPredicate> predicates = anyCached ? List.of() : scan.predicates();
        // Decided from the zone maps before anything is read, so that no segment is read twice.
        if (!predicates.isEmpty() && table.dataVersion() != null && table.rowsKept(predicates) * 2 > table.rowCount()) {
            predicates = List.of();
        }
        Optional<List<EncodedSegment>> encoded = table.encodedSegments(tableColumns, predicates);
        if (encoded.isPresent()) {
            return new StoredChunks(encoded.get());
        }
        return new HostBatches(readAll(table.scan(tableColumns, predicates, context.allocator()), context));
    }

    /** Every batch of {@code stream}, which is closed; on failure the batches read so far are closed too. */
    static List<Batch> readAll(BatchStream stream, ExecContext context) {
        return Batches.readAll(stream, context::checkCancelled);
    }

    /** The columns of a scan read from the source, to be copied to the device one by one. */
    private interface Read extends AutoCloseable {
        /** Rows of every column. */
        long rows();

        /** Column {@code m} of those read, in device memory. */
        DeviceColumn column(int m, DataType type, DeviceWork work);

        /** Tells EXPLAIN ANALYZE how the columns came, once all are on the device. */
        void note(NodeStats stats, long bytesCopied, long deviceBytes);

        @Override
        void close();
    }

    /** Chunks as stored, decoded on the device. */
    private static final class StoredChunks implements Read {
        private final List<EncodedSegment> segments;

        StoredChunks(List<EncodedSegment> segments) {
            this.segments = segments;
        }

        @Override
        public long rows() {
            return segments.stream().mapToLong(EncodedSegment::rowCount).sum();
        }

        @Override
        public DeviceColumn column(int m, DataType type, DeviceWork work) {
            return DeviceDecoder.decode(type, segments.stream().map(s -> s.columns().get(m)).toList(), work);
        }

        @Override
        public void note(NodeStats stats, long bytesCopied, long deviceBytes) {
            stats.note(String.format(Locale.ROOT, "decoded on gpu: %d segment%s, %.1f MB encoded -> %.1f MB", segments.size(),
                    segments.size() == 1 ? "" : "s", bytesCopied / 1e6, deviceBytes / 1e6));
        }

        @Override
        public void close() {
        }
    }

    /** Batches decoded on the host, copied in as they are. */
    private static final class HostBatches implements Read {
        private final List<Batch> batches;

        HostBatches(List<Batch> batches) {
            this.batches = batches;
        }

        @Override
        public long rows() {
            return batches.stream().mapToLong(Batch::rowCount).sum();
        }

        @Override
        public DeviceColumn column(int m, DataType type, DeviceWork work) {
            long rows = rows();
            if (rows > Integer.MAX_VALUE) {
                throw new GpuOutOfMemoryException("a GPU column holds at most 2^31-1 rows, not " + rows);
            }
            return HostToDevice.uploadColumn(type, batches, m, (int) rows, work);
        }

        @Override
        public void note(NodeStats stats, long bytesCopied, long deviceBytes) {
        }

        @Override
        public void close() {
            batches.forEach(Batch::close);
        }
    }
}
