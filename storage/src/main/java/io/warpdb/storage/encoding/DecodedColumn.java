package io.warpdb.storage.encoding;

import io.warpdb.core.batch.StringDictionary;
import org.apache.arrow.vector.FieldVector;

/**
 * A decoded column chunk. The caller owns the vector and must close it (closing this closes it).
 *
 * @param vector the values, in the physical layout of the column's type
 * @param dictionary for VARCHAR/CHAR the strings behind the codes, each once; null for other types
 */
public record DecodedColumn(FieldVector vector, StringDictionary dictionary) implements AutoCloseable {
    @Override
    public void close() {
        vector.close();
    }
}
