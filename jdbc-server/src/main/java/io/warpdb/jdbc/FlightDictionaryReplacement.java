package io.warpdb.jdbc;

import io.grpc.stub.StreamObserver;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.List;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;

/**
 * Sends a dictionary batch in the middle of a DoGet stream: a replacement of the dictionary with
 * the same id for the record batches after it, which the Arrow IPC stream format allows and the
 * Flight clients read (Java's FlightStream, C++ and pyarrow, Go and ADBC, Rust). Flight Java's
 * server API (18.x) sends dictionaries only with the schema, so the message goes to the gRPC
 * stream that its listener writes to, both reached by reflection (they are package-private). The caller waits for the stream's
 * readiness before each batch, the batch's replacements included.
 */
final class FlightDictionaryReplacement {
    private static final Field RESPONSE_OBSERVER;
    /** ArrowMessage's constructor of a dictionary batch message. */
    private static final Constructor<?> MESSAGE;

    static {
        try {
            MESSAGE = Class.forName("org.apache.arrow.flight.ArrowMessage").getConstructor(ArrowDictionaryBatch.class, IpcOption.class);
            MESSAGE.setAccessible(true);
            RESPONSE_OBSERVER = Class.forName("org.apache.arrow.flight.OutboundStreamListenerImpl").getDeclaredField("responseObserver");
            RESPONSE_OBSERVER.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private FlightDictionaryReplacement() {
    }

    /** Sends {@code dictionary}'s vector as it is now as the stream's dictionary of its id. */
    static void send(ServerStreamListener listener, Dictionary dictionary) {
        FieldVector entries = dictionary.getVector();
        // Not closed: it does not own the vector.
        VectorSchemaRoot dictionaryRoot = new VectorSchemaRoot(List.of(entries.getField()), List.of(entries), entries.getValueCount());
        try (ArrowDictionaryBatch batch = new ArrowDictionaryBatch(dictionary.getEncoding().getId(),
                new VectorUnloader(dictionaryRoot, true, true).getRecordBatch(), false);
                AutoCloseable message = (AutoCloseable) MESSAGE.newInstance(batch, IpcOption.DEFAULT)) {
            observer(listener).onNext(message);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // Reflection's, and closing the message's.
            throw new IllegalStateException("cannot send a dictionary batch: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static StreamObserver<Object> observer(ServerStreamListener listener) {
        try {
            return (StreamObserver<Object>) RESPONSE_OBSERVER.get(listener);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
