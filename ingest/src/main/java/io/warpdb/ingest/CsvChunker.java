package io.warpdb.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Cuts a CSV byte stream into chunks that end at record boundaries, so that chunks parse
 * independently on many threads. It follows quoting (a line end inside a quoted field does not
 * end the record) but looks at nothing else, which makes it much cheaper than parsing; it also
 * counts lines, so that each chunk knows the line it starts on (counted from the stream's start).
 * It may stop early: at the first record end after a line end at or after a given offset, the
 * end of a byte range of a file that one node of a cluster loads ({@link CsvRange}).
 */
final class CsvChunker {
    /**
     * A run of whole records: {@code bytes[0..length)}, the first starting on line {@code firstLine}
     * (1-based), {@code lines} line ends in all (so at most {@code lines + 1} records).
     */
    record Chunk(int index, byte[] bytes, int length, long firstLine, long lines) {
    }

    private static final int FIELD_START = 0;
    private static final int UNQUOTED = 1;
    private static final int QUOTED = 2;
    private static final int QUOTED_ESCAPE = 3;
    private static final int QUOTE_SEEN = 4;
    /** Eight bytes of a byte array at a time (the parser finds field ends with it too). */
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final long LINE_ENDS = broadcast((byte) '\n');

    private final InputStream in;
    private final CsvDialect dialect;
    private final int chunkBytes;
    /** The first line end outside quotes at or after this offset of the stream ends the last chunk. */
    private final long stopAt;
    /** Chunk buffers parsed and handed back; at most as many as chunks are in flight at a time. */
    private final Queue<byte[]> free = new ConcurrentLinkedQueue<>();
    private byte[] buffer;
    private int length;
    private int scanned;
    private int state = FIELD_START;
    private int boundary;
    private long linesToBoundary;
    private long linesScanned;
    private long nextLine = 1;
    private int nextIndex;
    private boolean end;
    /** The stream's bytes before {@code buffer[0]}: those of the chunks handed out. */
    private long consumed;
    /** Set once the record end at or after {@link #stopAt} is {@code boundary}: the last chunk ends there. */
    private boolean stopped;

    /** Cuts all of {@code in}. */
    CsvChunker(InputStream in, CsvDialect dialect, int chunkBytes) {
        this(in, dialect, chunkBytes, Long.MAX_VALUE);
    }

    /** Cuts {@code in} up to the end of the record that holds the line end at or first after offset {@code stopAt}. */
    CsvChunker(InputStream in, CsvDialect dialect, int chunkBytes, long stopAt) {
        this.in = in;
        this.dialect = dialect;
        this.chunkBytes = chunkBytes;
        this.stopAt = stopAt;
        this.buffer = new byte[chunkBytes];
    }

    /** The bytes of the chunks handed out so far: after the last, where the stream's records ended. */
    long consumed() {
        return consumed;
    }

    /** The next chunk, or null after the last. The last chunk may end without a line end. */
    Chunk next() throws IOException {
        while (!end && !stopped && length < buffer.length) {
            int n = in.read(buffer, length, buffer.length - length);
            if (n < 0) {
                end = true;
            } else {
                length += n;
            }
            scan();
            if (!end && length == buffer.length && boundary == 0) {
                buffer = Arrays.copyOf(buffer, buffer.length * 2); // one record longer than a chunk
            }
        }
        if (length == 0) {
            return null;
        }
        if (stopped) {
            end = true;
            length = boundary; // the bytes after the range's last record are another range's
        }
        int cut = end ? length : boundary;
        long lines = end ? linesScanned : linesToBoundary;
        Chunk chunk = new Chunk(nextIndex++, buffer, cut, nextLine, lines);
        byte[] rest = length - cut <= chunkBytes ? emptyBuffer() : new byte[length - cut];
        System.arraycopy(buffer, cut, rest, 0, length - cut);
        buffer = rest;
        length -= cut;
        scanned -= cut;
        consumed += cut;
        nextLine += lines;
        linesScanned -= lines;
        boundary = 0;
        linesToBoundary = 0;
        return chunk;
    }

    /**
     * Hands back the bytes of a chunk that has been parsed, for a later chunk to reuse: a new
     * chunk-sized array per chunk cost a large allocation, zeroed, and garbage collections.
     * Called from any thread; the chunk must not be used afterwards.
     */
    void recycle(Chunk chunk) {
        if (chunk.bytes().length == chunkBytes) {
            free.add(chunk.bytes());
        }
    }

    private byte[] emptyBuffer() {
        byte[] reused = free.poll();
        return reused != null ? reused : new byte[chunkBytes];
    }

    private void scan() {
        int s = state;
        long quotes = broadcast(dialect.quote());
        int i = scanned;
        // words end before the stop offset: the byte loop finds the first line end at or after it
        long wordsEnd = Math.min(length, Math.max(0, stopAt - consumed));
        while (i < length) {
            if (i + Long.BYTES <= wordsEnd && (s == FIELD_START || s == UNQUOTED)) {
                // Eight bytes at a time while outside quotes and no quote comes: then every line end
                // ends a record, and the state after the word depends on its last byte only.
                long word = (long) LONGS.get(buffer, i);
                if (zeroBytes(word ^ quotes) == 0) {
                    long lineEnds = zeroBytes(word ^ LINE_ENDS);
                    if (lineEnds != 0) {
                        linesScanned += Long.bitCount(lineEnds);
                        boundary = i + (Long.SIZE - Long.numberOfLeadingZeros(lineEnds)) / Byte.SIZE;
                        linesToBoundary = linesScanned;
                    }
                    byte last = (byte) (word >>> (Long.SIZE - Byte.SIZE));
                    s = last == '\n' || last == dialect.delimiter() ? FIELD_START : UNQUOTED;
                    i += Long.BYTES;
                    continue;
                }
            }
            byte c = buffer[i];
            s = step(s, c, dialect);
            if (c == '\n') {
                linesScanned++;
                if (s == FIELD_START) {
                    boundary = i + 1;
                    linesToBoundary = linesScanned;
                    if (consumed + i >= stopAt) {
                        stopped = true;
                        break;
                    }
                }
            }
            i++;
        }
        state = s;
        scanned = stopped ? boundary : length;
    }

    static long broadcast(byte b) {
        return (b & 0xFFL) * 0x0101_0101_0101_0101L;
    }

    /** The high bit of each zero byte of {@code x} set, nothing else (exact, unlike the borrow trick). */
    static long zeroBytes(long x) {
        long low7 = 0x7F7F_7F7F_7F7F_7F7FL;
        return ~((x & low7) + low7 | x | low7);
    }

    /** The offset just past the line end that ends the record starting at {@code from}, or {@code to}. */
    static int recordEnd(byte[] bytes, int from, int to, CsvDialect dialect) {
        int s = FIELD_START;
        for (int i = from; i < to; i++) {
            s = step(s, bytes[i], dialect);
            if (bytes[i] == '\n' && s == FIELD_START) {
                return i + 1;
            }
        }
        return to;
    }

    /** The state after byte {@code c}; a line end that leads to FIELD_START ends a record. */
    private static int step(int s, byte c, CsvDialect dialect) {
        byte quote = dialect.quote();
        if (s == QUOTED) {
            return c == quote ? QUOTE_SEEN : c == dialect.escape() ? QUOTED_ESCAPE : QUOTED;
        }
        if (s == QUOTED_ESCAPE || s == QUOTE_SEEN && c == quote && dialect.escape() == quote) {
            return QUOTED; // an escaped byte, or a doubled quote
        }
        if (c == '\n' || c == dialect.delimiter()) {
            return FIELD_START;
        }
        return s == FIELD_START && c == quote ? QUOTED : UNQUOTED;
    }
}
