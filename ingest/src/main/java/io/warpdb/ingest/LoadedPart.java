package io.warpdb.ingest;

import io.warpdb.core.batch.Batch;
import java.util.List;

/**
 * One parsed part of an input file: its rows (null when none were kept) and the rows rejected.
 */
record LoadedPart(Batch batch, List<Rejection> rejections) {
    void close() {
        if (batch != null) {
            batch.close();
        }
    }
}
