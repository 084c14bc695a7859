package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.core.types.Schema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The answer of work that runs long before it has rows (a fragment that sends its rows to the
 * shards, then answers one row of counts), on a thread of its own: until the answer is there, an
 * empty batch every {@code interval} tells a caller that bounds each wait for rows (the node
 * timeout) that this node lives. Whatever transport carries the stream.
 */
final class HeartbeatStream implements BatchStream {
    /** Runs the work, while the transport's thread sends the heartbeats. */
    private static final ExecutorService WORKERS = DaemonThreads.cachedPool("shard-fragment-sender");

    private final Schema schema;
    private final Duration interval;
    private final BufferAllocator allocator;
    private final CompletableFuture<BatchStream> running;
    private BatchStream answer;

    /** Starts {@code work}, whose answer is of {@code schema}; heartbeats are allocated to {@code allocator}. */
    HeartbeatStream(Schema schema, Duration interval, BufferAllocator allocator, Supplier<BatchStream> work) {
        this.schema = schema;
        this.interval = interval;
        this.allocator = allocator;
        this.running = CompletableFuture.supplyAsync(work, WORKERS);
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Batch next() {
        if (answer == null) {
            try {
                answer = running.get(interval.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillRunning) {
                return heartbeat();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new WarpException(SqlState.INTERNAL_ERROR, String.valueOf(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WarpException(SqlState.QUERY_CANCELED, "interrupted");
            }
        }
        return answer.next();
    }

    private Batch heartbeat() {
        List<FieldVector> vectors = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            FieldVector v = Vectors.allocate(schema.field(c).name(), schema.type(c), 0, allocator);
            v.setValueCount(0);
            vectors.add(v);
        }
        return new Batch(schema, vectors, Arrays.asList(new StringDictionary[schema.size()]), 0);
    }

    /** Closes the answer, now or, when the work still runs, once it is there. */
    @Override
    public void close() {
        if (answer != null) {
            answer.close();
        } else {
            running.thenAccept(BatchStream::close);
        }
    }
}
