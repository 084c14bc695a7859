package io.warpdb.core.exchange;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A table whose rows lie partly in an accelerator's memory ({@link #resident}) and partly on the
 * host ({@link #scanHost}): the accelerator's executor reads the first in place; {@link #scan}
 * gives all rows as host batches.
 */
public interface ResidentSource extends TableSource {
    /** The rows held on the device; they stay the source's. */
    List<ResidentRows> resident();

    /** The rows held on the host, columns {@code columns}; the caller owns the stream. */
    BatchStream scanHost(List<Integer> columns, BufferAllocator allocator);
}
