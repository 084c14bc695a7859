package io.warpdb.exec.gpu.column;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/** Copies device tables back into Arrow batches (through the pinned staging buffers). */
public final class DeviceToHost {
    /** Rows per returned batch, so that a large result streams to the client in pieces. */
    public static final int BATCH_ROWS = 1 << 20;

    private DeviceToHost() {
    }

    /** Rows [from, from + count) of {@code table} as a batch allocated from {@code allocator}. */
    public static Batch download(DeviceTable table, int from, int count, BufferAllocator allocator, DeviceWork work) {
        List<FieldVector> vectors = new ArrayList<>(table.columns().size());
        List<StringDictionary> dictionaries = new ArrayList<>(table.columns().size());
        try {
            for (int c = 0; c < table.columns().size(); c++) {
                DeviceColumn column = table.column(c);
                vectors.add(downloadColumn(table.schema().field(c).name(), column, from, count, allocator, work));
                dictionaries.add(column.dictionary());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(table.schema(), vectors, dictionaries, count);
    }

    private static FieldVector downloadColumn(String name, DeviceColumn column, int from, int count,
            BufferAllocator allocator, DeviceWork work) {
        DataType type = column.type();
        FieldVector v = Vectors.allocate(name, type, count, allocator);
        try {
            int width = DeviceColumn.width(type);
            if (type.kind() == TypeKind.BOOLEAN) {
                byte[] values = work.downloadBytes(column.values(), from, count);
                BitVector bits = (BitVector) v;
                for (int i = 0; i < count; i++) {
                    bits.set(i, values[i]);
                }
            } else if (count > 0) {
                synchronized (work.device().staging()) {
                    work.device().staging().download(column.values(), (long) from * width, (long) count * width,
                            v.getDataBuffer().nioBuffer(0, count * width), work.stream());
                }
                work.countToHost((long) count * width);
                v.getValidityBuffer().setOne(0, (count + 7) / 8);
            }
            if (column.validity() != null && count > 0) {
                byte[] valid = work.downloadBytes(column.validity(), from, count);
                for (int i = 0; i < count; i++) {
                    BitVectorHelper.setValidityBit(v.getValidityBuffer(), i, valid[i]);
                }
            }
            v.setValueCount(count);
            return v;
        } catch (RuntimeException e) {
            v.close();
            throw e;
        }
    }

}
