package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.DecodedColumn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageMetadataResult;
import org.apache.arrow.vector.ipc.message.MessageSerializer;

/**
 * Batches as the payloads of frames between nodes (the UCX transport's): a schema frame, then a
 * frame per batch. Uncompressed, a batch is an Arrow IPC record batch of {@link WireFormat}'s
 * schema (strings as UTF-8). Compressed (seed 000, section 4), each column is a storage chunk
 * ({@link ChunkCodec}: the encoding among plain, the RLE/Delta/frame-of-reference-bitpack
 * cascades and dictionaries that a sample of the column finds smallest; strings as a dictionary
 * of the entries the batch uses and their codes). As in the seed (section 6.4), the choice is a
 * property of the column: a sender samples a column's first batch and encodes the next
 * {@value #RESAMPLE_BATCHES} - 1 alike, then samples again, so that the selector's cost (tens of ms for
 * 64K values, against well under one to encode) is paid once per run of batches:
 * <pre>
 * schema frame := u8 compressed (0|1) · the Arrow schema as an IPC message ({@link WireFormat#arrowSchema})
 * batch frame  := an Arrow IPC record batch message                     (uncompressed)
 *               | i32 rowCount · per column: i32 n · n bytes of a chunk  (compressed)
 * </pre>
 */
final class WireCodec implements AutoCloseable {
    /** Batches of a stream encoded alike after each sampled one. */
    static final int RESAMPLE_BATCHES = 16;

    private final Schema schema;
    private final boolean compressed;
    private final BufferAllocator allocator;
    /** Uncompressed only: the Arrow vectors a batch passes through. */
    private final VectorSchemaRoot root;
    /** Compressed, sending: the encodings chosen per column. */
    private final Choices choices;

    /**
     * Per column the encoding chosen on the last sampled batch (null: sample the next one), which
     * the codecs of one sender's streams of like rows share (its streams to every node under one
     * exchange id), so that it samples once for all of them. One sender's thread uses it.
     */
    static final class Choices {
        private final String[] chosen;
        private int batchesSinceSample;

        Choices(Schema schema) {
            this.chosen = new String[schema.size()];
        }

        /** Counts a batch about to be encoded; forgets the choices when due to sample again. */
        private void nextBatch() {
            if (batchesSinceSample++ % RESAMPLE_BATCHES == 0) {
                Arrays.fill(chosen, null);
            }
        }
    }

    private WireCodec(Schema schema, boolean compressed, BufferAllocator allocator, Choices choices) {
        this.schema = schema;
        this.compressed = compressed;
        this.allocator = allocator;
        this.root = compressed ? null : VectorSchemaRoot.create(WireFormat.arrowSchema(schema), allocator);
        this.choices = choices;
    }

    /**
     * A codec for sending batches of {@code schema}; its scratch vectors come from {@code
     * allocator}; compressed, it encodes as {@code choices} says, choosing when they are due.
     */
    static WireCodec forSending(Schema schema, boolean compressed, BufferAllocator allocator, Choices choices) {
        return new WireCodec(schema, compressed, allocator, choices);
    }

    /** A codec for the batches that follow {@code schemaFrame}; decoded batches are allocated to {@code allocator}. */
    static WireCodec forReceiving(ByteBuffer schemaFrame, BufferAllocator allocator) {
        ByteBuffer frame = schemaFrame.duplicate();
        boolean compressed = frame.get() == 1;
        return new WireCodec(WireFormat.schema(org.apache.arrow.vector.types.pojo.Schema.deserializeMessage(frame.slice())), compressed,
                allocator, null);
    }

    Schema schema() {
        return schema;
    }

    /** The frame that announces this codec's schema and form. */
    ByteBuffer schemaFrame() {
        byte[] arrow = WireFormat.arrowSchema(schema).serializeAsMessage();
        return ByteBuffer.allocate(1 + arrow.length).put((byte) (compressed ? 1 : 0)).put(arrow).flip();
    }

    /**
     * {@code batch} as a frame: its bytes are the buffer's first {@code writerIndex()}, off-heap
     * (UCX sends from it without another copy); the caller owns it. The batch's buffers are copied
     * once, straight into the frame.
     */
    ArrowBuf encode(Batch batch) {
        if (compressed) {
            choices.nextBatch();
            List<byte[]> chunks = new ArrayList<>(batch.columnCount());
            int size = Integer.BYTES;
            for (int c = 0; c < batch.columnCount(); c++) {
                chunks.add(encodeColumn(batch, c));
                size += Integer.BYTES + chunks.get(c).length;
            }
            ArrowBuf frame = allocator.buffer(size);
            ByteBuffer out = frame.nioBuffer(0, size).putInt(batch.rowCount());
            for (byte[] chunk : chunks) {
                out.putInt(chunk.length).put(chunk);
            }
            return frame.writerIndex(size);
        }
        WireFormat.fill(root, batch);
        try (ArrowRecordBatch message = new VectorUnloader(root).getRecordBatch()) {
            // the continuation token and length, the metadata padded to 8 bytes, the body (its buffers padded to 8)
            long size = 2L * Integer.BYTES + MessageSerializer.serializeMetadata(message).remaining() + 8 + message.computeBodyLength();
            ArrowBuf frame = allocator.buffer(size);
            try {
                FrameChannel out = new FrameChannel(frame);
                MessageSerializer.serialize(new WriteChannel(out), message);
                return frame.writerIndex(out.position);
            } catch (IOException | RuntimeException e) {
                frame.close();
                throw new IllegalStateException("writing a frame failed", e);
            }
        }
    }

    /** A frame as a channel from its start: writes go up to its capacity, reads up to its {@code writerIndex()}. */
    private static final class FrameChannel implements ByteChannel {
        private final ArrowBuf frame;
        private long position;

        FrameChannel(ArrowBuf frame) {
            this.frame = frame;
        }

        @Override
        public int write(ByteBuffer source) {
            int length = source.remaining();
            frame.setBytes(position, source);
            source.position(source.limit());
            position += length;
            return length;
        }

        @Override
        public int read(ByteBuffer target) {
            long left = frame.writerIndex() - position;
            if (left <= 0) {
                return -1;
            }
            int length = (int) Math.min(target.remaining(), left);
            frame.getBytes(position, target.slice().limit(length));
            target.position(target.position() + length);
            position += length;
            return length;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** Column {@code c} of {@code batch} as a chunk, in the encoding chosen for the column (choosing it when due). */
    private byte[] encodeColumn(Batch batch, int c) {
        DataType type = schema.type(c);
        int rows = batch.rowCount();
        if (type.isWideDecimal() || rows == 0) {
            return ChunkCodec.encode(batch.vector(c), type, batch.dictionary(c), rows).bytes();
        }
        String[] chosen = choices.chosen;
        if (chosen[c] == null) {
            chosen[c] = ChunkCodec.chooseEncoding(batch.vector(c), type, batch.dictionary(c), rows);
        }
        return ChunkCodec.encodeAs(batch.vector(c), type, batch.dictionary(c), rows, chosen[c]).bytes();
    }

    /**
     * The batch in {@code frame}'s first {@code writerIndex()} bytes; the caller owns it, and still
     * owns {@code frame}, which it may close at once: an uncompressed batch's vectors share the
     * frame's memory (no copy) and keep it alive while they do.
     */
    Batch decode(ArrowBuf frame) {
        try {
            return compressed ? decodeChunks(frame.nioBuffer(0, (int) frame.writerIndex())) : decodeArrow(frame);
        } catch (IOException | RuntimeException e) {
            throw new WarpException(SqlState.CONNECTION_FAILURE, "a batch from another node is corrupt: " + e.getMessage(), e);
        }
    }

    /**
     * A received frame's payload as a buffer of {@code allocator} for {@link #decode}, which the
     * caller owns: a direct buffer without a copy (the buffer keeps the payload reachable until it
     * is released), a heap one copied.
     */
    static ArrowBuf frameOf(ByteBuffer payload, BufferAllocator allocator) {
        int length = payload.remaining();
        if (!payload.isDirect() || length == 0) {
            ArrowBuf frame = allocator.buffer(length);
            frame.setBytes(0, payload.duplicate());
            return frame.writerIndex(length);
        }
        ByteBuffer held = payload.slice();
        ArrowBuf frame = allocator.wrapForeignAllocation(new ForeignAllocation(length, MemoryUtil.getByteBufferAddress(held)) {
            /** Keeps the payload reachable (its memory the JDK's) until the frame is released. */
            private ByteBuffer payload = held;

            @Override
            protected void release0() {
                payload = null;
            }
        });
        return frame.writerIndex(length);
    }

    private Batch decodeArrow(ArrowBuf frame) throws IOException {
        ReadChannel in = new ReadChannel(new FrameChannel(frame));
        MessageMetadataResult metadata = MessageSerializer.readMessage(in);
        if (metadata == null) {
            throw new IOException("the frame holds no Arrow message");
        }
        // a slice shares the frame's reference count, and deserializing releases the body once its buffers are retained:
        // a reference of its own, so that the frame stays the caller's
        ArrowBuf body = frame.slice(in.bytesRead(), metadata.getMessageBodyLength());
        frame.getReferenceManager().retain();
        try (ArrowRecordBatch message = MessageSerializer.deserializeRecordBatch(metadata, body)) {
            new VectorLoader(root).load(message);
        }
        return WireFormat.batch(root, schema, allocator);
    }

    private Batch decodeChunks(ByteBuffer frame) {
        int rows = frame.getInt();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                int length = frame.getInt();
                DecodedColumn column = ChunkCodec.decode(frame.slice(frame.position(), length), schema.type(c), schema.field(c).name(),
                        allocator);
                frame.position(frame.position() + length);
                vectors.add(column.vector());
                dictionaries.add(column.dictionary());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, dictionaries, rows);
    }

    @Override
    public void close() {
        if (root != null) {
            root.close();
        }
    }
}
