package io.warpdb.storage;

import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.EncodedChunk;
import java.util.List;

/**
 * A segment freshly cut from appended rows, its columns encoded and its zone maps computed, not
 * yet stored: the {@link Store} turns it into a {@link MemorySegment} or writes its file.
 *
 * @param types  the columns' types, in schema order
 * @param chunks one encoded chunk per column, in schema order
 */
record BuiltSegment(long id, String table, int rowCount, List<ZoneMap> zoneMaps, List<DataType> types, List<EncodedChunk> chunks) {
    BuiltSegment {
        zoneMaps = List.copyOf(zoneMaps);
        types = List.copyOf(types);
        chunks = List.copyOf(chunks);
    }
}
