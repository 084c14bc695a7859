package io.warpdb.core.batch;

import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Small stream adapters shared by executors and storage. */
public final class Batches {
    private Batches() {
    }

    /** A stream over batches already in hand; batches not yet pulled are closed with the stream. */
    public static BatchStream of(Schema schema, List<Batch> batches) {
        return new BatchStream() {
            private final Iterator<Batch> it = new ArrayList<>(batches).iterator();

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public Batch next() {
                return it.hasNext() ? it.next() : null;
            }

            @Override
            public void close() {
                while (it.hasNext()) {
                    it.next().close();
                }
            }
        };
    }
}
