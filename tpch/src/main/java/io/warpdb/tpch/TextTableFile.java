package io.warpdb.tpch;

import io.warpdb.core.batch.Utf8Dictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.ingest.BadValueException;
import io.warpdb.ingest.TextValueParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * One benchmark table as the data generators write it (dbgen's {@code .tbl}, dsdgen's
 * {@code .dat}): one row a line, each value followed by {@code |}, money with its decimals, dates
 * as {@code yyyy-mm-dd}; an empty value of a nullable column is NULL. Read in byte ranges that
 * may be read concurrently: a part owns the lines that start inside its range. Fields are parsed
 * as COPY parses them, by {@link TextValueParser}.
 */
public final class TextTableFile {
    /** Bytes per part: about 60K lineitem rows, one batch. */
    public static final long PART_BYTES = 8L << 20;

    private final String name;
    private final Path file;
    private final Schema schema;
    private final long partBytes;
    private final long size;

    /**
     * Table {@code name} in {@code file}, read in parts of {@code partBytes}; a missing file fails
     * here, naming the table and the file.
     */
    public TextTableFile(String name, Path file, Schema schema, long partBytes) {
        this.name = name;
        this.file = file;
        this.schema = schema;
        this.partBytes = partBytes;
        try {
            this.size = Files.size(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("table " + name + ": no file " + file, e);
        } catch (IOException e) {
            throw new UncheckedIOException("table " + name + ": cannot read " + file, e);
        }
    }

    public Path file() {
        return file;
    }

    public int parts() {
        return (int) Math.max(1, (size + partBytes - 1) / partBytes);
    }

    /** A cursor over the lines that start in part {@code part} (0-based). */
    public RowCursor open(int part) {
        return new Cursor(file, part * partBytes, Math.min(size, (part + 1) * partBytes), schema);
    }

    /** The table to load, its rows read from this file. */
    public TableParts tableParts() {
        return new TableParts(name, schema, parts(), this::open, file);
    }

    /** Parses the lines of one byte range of a file. */
    private static final class Cursor implements RowCursor {
        private final Path file;
        private final Schema schema;
        private final FileChannel channel;
        private final long end;
        private final int[] fieldStart;
        private final int[] fieldEnd;
        private final byte[] buffer = new byte[1 << 16];
        private int bufferPosition;
        private int bufferLength;
        /** File offset of the next unread byte, and of the line now parsed. */
        private long position;
        private long lineOffset;
        private byte[] line = new byte[512];
        private int length;

        Cursor(Path file, long start, long end, Schema schema) {
            this.file = file;
            this.schema = schema;
            this.end = end;
            this.fieldStart = new int[schema.size()];
            this.fieldEnd = new int[schema.size()];
            // The line running across `start` belongs to the previous part: start reading one
            // byte early and drop everything up to the first line end.
            this.position = Math.max(0, start - 1);
            try {
                this.channel = FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
            try {
                channel.position(position);
                if (start > 0) {
                    readLine();
                }
            } catch (IOException e) {
                close();
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }

        /** Reads the next line into {@code line}; false at the end of the file. */
        private boolean readLine() throws IOException {
            length = 0;
            while (true) {
                if (bufferPosition == bufferLength) {
                    bufferLength = channel.read(ByteBuffer.wrap(buffer));
                    bufferPosition = 0;
                    if (bufferLength <= 0) {
                        bufferLength = 0;
                        return length > 0;
                    }
                }
                byte b = buffer[bufferPosition++];
                position++;
                if (b == '\n') {
                    return true;
                }
                if (length == line.length) {
                    line = Arrays.copyOf(line, length * 2);
                }
                line[length++] = b;
            }
        }

        @Override
        public boolean next() {
            lineOffset = position;
            try {
                if (lineOffset >= end || !readLine()) {
                    return false;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
            int from = 0;
            for (int c = 0; c < fieldStart.length; c++) {
                int bar = indexOf('|', from);
                if (bar < 0) {
                    throw malformed("has " + c + " values, expected " + fieldStart.length);
                }
                fieldStart[c] = from;
                fieldEnd[c] = bar;
                from = bar + 1;
            }
            return true;
        }

        private int indexOf(char ch, int from) {
            for (int i = from; i < length; i++) {
                if (line[i] == ch) {
                    return i;
                }
            }
            return -1;
        }

        private IllegalArgumentException malformed(String problem) {
            return new IllegalArgumentException(file + ": the line at byte " + lineOffset + " " + problem);
        }

        @Override
        public boolean isNull(int column) {
            return fieldStart[column] == fieldEnd[column] && schema.type(column).nullable();
        }

        @Override
        public long getLong(int column) {
            DataType type = schema.type(column);
            int from = fieldStart[column];
            int to = fieldEnd[column];
            try {
                return switch (type.kind()) {
                    case INTEGER -> TextValueParser.parseInteger(line, from, to);
                    case BIGINT -> TextValueParser.parseBigint(line, from, to);
                    case DECIMAL -> TextValueParser.parseDecimal(line, from, to, type);
                    default -> throw new IllegalStateException("column " + schema.field(column) + " is not a number");
                };
            } catch (BadValueException e) {
                throw malformedValue(column, "a number");
            }
        }

        @Override
        public int getDate(int column) {
            try {
                return TextValueParser.parseDate(line, fieldStart[column], fieldEnd[column]);
            } catch (BadValueException e) {
                throw malformedValue(column, "a yyyy-mm-dd date");
            }
        }

        private IllegalArgumentException malformedValue(int column, String expected) {
            return malformed("has '" + getString(column) + "' where column " + schema.field(column) + " expects " + expected);
        }

        @Override
        public String getString(int column) {
            return new String(line, fieldStart[column], stringEnd(column) - fieldStart[column], StandardCharsets.UTF_8);
        }

        @Override
        public int addString(int column, Utf8Dictionary dictionary) {
            return dictionary.add(line, fieldStart[column], stringEnd(column));
        }

        /** Where the string value of {@code column} ends in {@code line}: CHAR values carry no padding in WarpDB. */
        private int stringEnd(int column) {
            int to = fieldEnd[column];
            if (schema.type(column).kind() == TypeKind.CHAR) {
                while (to > fieldStart[column] && line[to - 1] == ' ') {
                    to--;
                }
            }
            return to;
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + file, e);
            }
        }
    }
}
