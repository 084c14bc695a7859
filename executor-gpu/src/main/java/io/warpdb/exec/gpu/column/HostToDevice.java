package io.warpdb.exec.gpu.column;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.PinnedStaging;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies Arrow batches into device columns, one contiguous column per input column. Fixed-width
 * values go as they are; BOOLEAN bits become bytes; string codes of batches with different
 * dictionaries are renumbered into one {@link MergedDictionary}; validity bits become bytes only
 * for columns that have NULLs.
 */
public final class HostToDevice {
    private HostToDevice() {
    }

    /** All rows of {@code batches} (which have {@code schema}) as a device table. */
    public static DeviceTable upload(Schema schema, List<Batch> batches, DeviceWork work) {
        long total = batches.stream().mapToLong(Batch::rowCount).sum();
        if (total > Integer.MAX_VALUE) {
            throw new io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException("a GPU intermediate result holds at most 2^31-1 rows, not " + total);
        }
        List<DeviceColumn> columns = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                columns.add(uploadColumn(schema.type(c), batches, c, (int) total, work));
            }
        } catch (RuntimeException e) {
            columns.forEach(DeviceColumn::close);
            throw e;
        }
        return new DeviceTable(schema, (int) total, columns);
    }

    /** Column {@code c} of every batch as one device column of {@code rows} rows. */
    public static DeviceColumn uploadColumn(DataType type, List<Batch> batches, int c, int rows, DeviceWork work) {
        int width = DeviceColumn.width(type);
        MergedDictionary merged = type.kind().isString()
                ? MergedDictionary.of(batches.stream().map(b -> b.dictionary(c)).toList()) : null;
        boolean hasNulls = batches.stream().anyMatch(b -> b.vector(c).getNullCount() > 0);
        DeviceBuffer values = work.allocate((long) rows * width, "column values");
        DeviceBuffer validity = null;
        try {
            PinnedStaging staging = work.device().staging();
            synchronized (staging) {
                PinnedStaging.Upload upload = staging.upload(values, work.stream());
                for (Batch b : batches) {
                    putValues(upload, b.vector(c), b.rowCount(), type, width,
                            merged != null && merged.renumbers() ? merged.codeMap(b.dictionary(c)) : null);
                }
                work.countToDevice(upload.finish());
                if (hasNulls) {
                    validity = work.allocate(rows, "column validity");
                    PinnedStaging.Upload valid = staging.upload(validity, work.stream());
                    for (Batch b : batches) {
                        FieldVector v = b.vector(c);
                        for (int i = 0; i < b.rowCount(); i++) {
                            valid.putByte(v.isNull(i) ? (byte) 0 : (byte) 1);
                        }
                    }
                    work.countToDevice(valid.finish());
                }
            }
        } catch (RuntimeException e) {
            values.close();
            if (validity != null) {
                validity.close();
            }
            throw e;
        }
        return new DeviceColumn(type, rows, values, validity, merged == null ? null : merged.dictionary());
    }

    private static void putValues(PinnedStaging.Upload upload, FieldVector v, int rows, DataType type, int width, int[] renumber) {
        if (type.kind() == io.warpdb.core.types.TypeKind.BOOLEAN) {
            BitVector bits = (BitVector) v;
            for (int i = 0; i < rows; i++) {
                upload.putByte(bits.isNull(i) ? 0 : (byte) bits.get(i));
            }
        } else if (renumber != null) {
            for (int i = 0; i < rows; i++) {
                upload.putInt(v.isNull(i) ? 0 : renumber[v.getDataBuffer().getInt((long) i * 4)]);
            }
        } else if (rows > 0) {
            upload.put(v.getDataBuffer().nioBuffer(0, rows * width));
        }
    }

}
