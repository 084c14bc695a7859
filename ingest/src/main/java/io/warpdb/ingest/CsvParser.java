package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Parses chunks of one CSV file (RFC 4180, with the file's {@link CsvDialect}): into a batch
 * of the table's columns, or into strings for schema inference. Errors name the file, line and
 * column (1-based, in characters) where the bad field starts, and what was expected there.
 * Thread-safe: each call keeps its own state.
 */
final class CsvParser {
    private static final int SHOWN_CHARACTERS = 60;

    private final String file;
    private final CsvDialect dialect;
    private final byte[] nullBytes;
    /**
     * The lines of the file before the bytes parsed, whose chunks count lines from 1: 0 for a whole
     * file; for a byte range, counted only when an error names a line, so that parsing pays nothing.
     */
    private final LongSupplier linesBefore;

    CsvParser(String file, CsvDialect dialect) {
        this(file, dialect, () -> 0);
    }

    CsvParser(String file, CsvDialect dialect, LongSupplier linesBefore) {
        this.file = file;
        this.dialect = dialect;
        this.nullBytes = dialect.nullString().getBytes(StandardCharsets.UTF_8);
        this.linesBefore = linesBefore;
    }

    /** A record that does not fit, with its location; becomes a {@link Rejection}. */
    private static final class BadRecordException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient SqlState state;

        BadRecordException(SqlState state, String message) {
            super(message, null, false, false);
            this.state = state;
        }
    }

    /**
     * The chunk's rows as a batch, assembled in {@code batch} (new or {@link BatchAssembly#reset}),
     * which the caller may reset and reuse once this returns; the first record is skipped when it
     * is the file's header. A bad row fails the parse, or when {@code reject} is set, is left out
     * and reported in the result.
     */
    LoadedPart parse(CsvChunker.Chunk chunk, BatchAssembly batch, boolean skipHeader, boolean reject) {
        Cursor cursor = new Cursor(chunk);
        if (skipHeader) {
            cursor.skipRecord();
        }
        List<Rejection> rejections = new ArrayList<>();
        Schema schema = batch.schema();
        int columns = schema.size();
        int row = 0;
        while (!cursor.atEnd()) {
            int recordStart = cursor.pos;
            long recordLine = cursor.line;
            try {
                for (int c = 0; c < columns; c++) {
                    if (c > 0 && cursor.endOfRecord) {
                        throw cursor.errorAtRecordEnd("expected " + columns + " fields, found " + c);
                    }
                    cursor.field();
                    try {
                        if (cursor.isNull()) {
                            batch.column(c).setNull(row);
                        } else {
                            batch.column(c).parse(cursor.fieldBytes, cursor.from, cursor.to, cursor.ascii, row);
                        }
                    } catch (BadValueException e) {
                        throw cursor.errorAtField(e.state(), "expected " + e.expected() + ", found "
                                + cursor.shownField() + " (column " + schema.field(c).name() + ")");
                    }
                }
                cursor.endRecord(columns);
                row++;
            } catch (BadRecordException e) {
                if (!reject) {
                    throw new WarpException(e.state, e.getMessage());
                }
                int end = CsvChunker.recordEnd(chunk.bytes(), recordStart, chunk.length(), dialect);
                rejections.add(new Rejection(e.state, e.getMessage(), Arrays.copyOfRange(chunk.bytes(), recordStart, end)));
                cursor.restartAt(end, recordStart, recordLine);
            }
        }
        return new LoadedPart(row == 0 ? null : batch.build(row), rejections);
    }

    /** Up to {@code max} records of the chunk as strings (null for NULL), the header included. */
    List<String[]> records(CsvChunker.Chunk chunk, int max) {
        Cursor cursor = new Cursor(chunk);
        List<String[]> records = new ArrayList<>();
        while (!cursor.atEnd() && records.size() < max) {
            List<String> fields = new ArrayList<>();
            do {
                cursor.field();
                fields.add(cursor.isNull() ? null : new String(cursor.fieldBytes, cursor.from, cursor.to - cursor.from, StandardCharsets.UTF_8));
            } while (!cursor.endOfRecord);
            // The empty field after a trailing delimiter reads as NULL where the NULL string is empty (.tbl files).
            String last = fields.get(fields.size() - 1);
            if (dialect.trailingDelimiter() && fields.size() > 1 && (last == null || last.isEmpty())) {
                fields.remove(fields.size() - 1);
            }
            records.add(fields.toArray(String[]::new));
        }
        return records;
    }

    /** A position in a chunk and the field last read. */
    private final class Cursor {
        private final byte[] bytes;
        private final int length;
        private int pos;
        private long line;
        private int lineStart;
        private boolean endOfRecord = true;
        /** The field: {@code fieldBytes[from..to)}, unescaped; where it starts in the chunk, and its line. */
        private byte[] fieldBytes;
        private int from;
        private int to;
        private boolean quoted;
        /** True when the field is known to be ASCII (found while looking for its end); false when not known. */
        private boolean ascii;
        private int fieldStart;
        private long fieldLine;
        private int fieldLineStart;
        /** The line end that ended the last record: where a record with too few fields is reported. */
        private int recordEnd;
        private long recordEndLine;
        private int recordEndLineStart;
        private byte[] scratch = new byte[64];
        private final long delimiters = CsvChunker.broadcast(dialect.delimiter());

        Cursor(CsvChunker.Chunk chunk) {
            this.bytes = chunk.bytes();
            this.length = chunk.length();
            this.line = chunk.firstLine();
        }

        boolean atEnd() {
            return pos >= length;
        }

        void skipRecord() {
            restartAt(CsvChunker.recordEnd(bytes, pos, length, dialect), pos, line);
        }

        /** Continues at {@code offset}, the end of the record at {@code recordStart}, which started on {@code recordLine}. */
        void restartAt(int offset, int recordStart, long recordLine) {
            line = recordLine;
            for (int i = recordStart; i < offset; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            pos = offset;
            endOfRecord = true;
        }

        boolean isNull() {
            return !quoted && to - from == nullBytes.length && Arrays.equals(fieldBytes, from, to, nullBytes, 0, nullBytes.length);
        }

        /** Reads the field at {@code pos}. */
        void field() {
            fieldStart = pos;
            fieldLine = line;
            fieldLineStart = lineStart;
            quoted = pos < length && bytes[pos] == dialect.quote();
            int end = quoted ? quotedField() : unquotedField();
            if (end >= length) {
                endOfRecord = true;
                recordEnd = length;
                recordEndLine = line;
                recordEndLineStart = lineStart;
                pos = length;
            } else if (bytes[end] == dialect.delimiter()) {
                endOfRecord = false;
                pos = end + 1;
            } else {
                endOfRecord = true;
                recordEnd = end;
                recordEndLine = line;
                recordEndLineStart = lineStart;
                newLineAt(end);
            }
        }

        private void newLineAt(int offset) {
            pos = offset + 1;
            line++;
            lineStart = pos;
        }

        /**
         * Finds the field's end; returns the offset of its delimiter or line end (or the chunk's end).
         * Notes on the way whether every byte is ASCII, which spares strings a second pass to check their UTF-8.
         */
        private int unquotedField() {
            byte delimiter = dialect.delimiter();
            int i = pos;
            long highBits = 0;
            boolean found = false;
            // Eight bytes at a time (fields average about as many): the first delimiter or line end in a word ends the field.
            for (; i + Long.BYTES <= length; i += Long.BYTES) {
                long word = (long) CsvChunker.LONGS.get(bytes, i);
                long stops = CsvChunker.zeroBytes(word ^ delimiters) | CsvChunker.zeroBytes(word ^ CsvChunker.LINE_ENDS);
                if (stops != 0) {
                    int before = Long.numberOfTrailingZeros(stops) >>> 3; // the field's bytes in this word
                    highBits |= before == 0 ? 0 : word & (-1L >>> (Long.SIZE - before * Byte.SIZE));
                    i += before;
                    found = true;
                    break;
                }
                highBits |= word;
            }
            for (; !found && i < length; i++) {
                byte b = bytes[i];
                if (b == delimiter || b == '\n') {
                    break;
                }
                highBits |= b;
            }
            ascii = (highBits & 0x8080_8080_8080_8080L) == 0;
            fieldBytes = bytes;
            from = pos;
            to = i < length && bytes[i] == '\n' && i > pos && bytes[i - 1] == '\r' ? i - 1 : i;
            return i;
        }

        private int quotedField() {
            byte quote = dialect.quote();
            byte escape = dialect.escape();
            int i = pos + 1;
            int segment = i;
            int copied = -1; // bytes unescaped into scratch; -1 while the field is a plain slice
            while (true) {
                if (i >= length) {
                    throw errorAtField(SqlState.BAD_COPY_FILE_FORMAT, "expected a closing quote for the quoted field "
                            + "that starts here, found the end of the file");
                }
                byte c = bytes[i];
                boolean doubled = c == quote && escape == quote && i + 1 < length && bytes[i + 1] == quote;
                if (c == quote && !doubled) {
                    break;
                }
                if (doubled || c == escape) {
                    if (i + 1 >= length) {
                        i++;
                        continue; // reported as unterminated above
                    }
                    copied = append(copied, segment, i);
                    copied = append(copied, i + 1, i + 2);
                    i += 2;
                    segment = i;
                    continue;
                }
                if (c == '\n') {
                    line++;
                    lineStart = i + 1;
                }
                i++;
            }
            ascii = false; // not looked at: the column checks the bytes if it needs to know
            if (copied < 0) {
                fieldBytes = bytes;
                from = segment;
                to = i;
            } else {
                copied = append(copied, segment, i);
                fieldBytes = scratch;
                from = 0;
                to = copied;
            }
            int after = i + 1;
            if (after + 1 < length && bytes[after] == '\r' && bytes[after + 1] == '\n') {
                after++;
            }
            if (after < length && bytes[after] != dialect.delimiter() && bytes[after] != '\n') {
                throw error(line, lineStart, after, SqlState.BAD_COPY_FILE_FORMAT, "expected a delimiter or a line end after the closing quote, found "
                        + shown(bytes, after, Math.min(length, after + 1)));
            }
            return after;
        }

        private int append(int copied, int start, int end) {
            int at = Math.max(copied, 0);
            if (at + end - start > scratch.length) {
                scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, at + end - start));
            }
            System.arraycopy(bytes, start, scratch, at, end - start);
            return at + end - start;
        }

        /** After the last column: the record must end here (for a trailing delimiter: right after it). */
        void endRecord(int columns) {
            if (endOfRecord) {
                return;
            }
            if (dialect.trailingDelimiter()) {
                int i = pos;
                if (i + 1 < length && bytes[i] == '\r' && bytes[i + 1] == '\n') {
                    i++;
                }
                if (i >= length) {
                    pos = length;
                    endOfRecord = true;
                    return;
                }
                if (bytes[i] == '\n') {
                    newLineAt(i);
                    endOfRecord = true;
                    return;
                }
            }
            throw error(line, lineStart, pos, SqlState.BAD_COPY_FILE_FORMAT, "expected " + columns + " fields, found more");
        }

        String shownField() {
            return shown(fieldBytes, from, to);
        }

        BadRecordException errorAtField(SqlState state, String message) {
            return error(fieldLine, fieldLineStart, fieldStart, state, message);
        }

        BadRecordException errorAtRecordEnd(String message) {
            return error(recordEndLine, recordEndLineStart, recordEnd, SqlState.BAD_COPY_FILE_FORMAT, message);
        }

        /** An error at {@code offset}, on the line {@code atLine} that starts at {@code atLineStart}. */
        BadRecordException error(long atLine, int atLineStart, int offset, SqlState state, String message) {
            int column = 1;
            for (int i = atLineStart; i < offset && i < length; i++) {
                if ((bytes[i] & 0xC0) != 0x80) {
                    column++; // counts characters, not UTF-8 continuation bytes
                }
            }
            return new BadRecordException(state, file + ":" + (linesBefore.getAsLong() + atLine) + ":" + column + ": " + message);
        }
    }

    /** A value for an error message: quoted, cut short, bad UTF-8 shown as replacement characters. */
    private static String shown(byte[] bytes, int from, int to) {
        String s = new String(bytes, from, to - from, StandardCharsets.UTF_8);
        return "'" + (s.length() > SHOWN_CHARACTERS ? s.substring(0, SHOWN_CHARACTERS) + "..." : s) + "'";
    }
}
