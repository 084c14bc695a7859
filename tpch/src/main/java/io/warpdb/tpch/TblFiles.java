package io.warpdb.tpch;

import io.trino.tpch.TpchEntity;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.ingest.BadValueException;
import io.warpdb.ingest.OrderedParallel;
import io.warpdb.ingest.TextValueParser;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * TPC-H data as dbgen text files in one directory: {@code <table>.tbl}, one row per line, each
 * value followed by {@code |}, money with two decimals, dates as {@code yyyy-mm-dd}. Writes
 * what {@link TpchGenerator} generates ({@code warpdb tpch gen}) and reads such files, or
 * dbgen's own, back as {@link TpchData}. Reading splits a file into byte ranges; a part owns
 * the lines that start inside its range. Fields are parsed as COPY parses them, by {@link
 * TextValueParser}.
 */
public final class TblFiles implements TpchData {
    /** Bytes per part when reading: about 60K lineitem rows, one batch. */
    static final long PART_BYTES = 8L << 20;

    private final Path dir;
    private final long partBytes;

    public TblFiles(Path dir) {
        this(dir, PART_BYTES);
    }

    /** Files read in parts of {@code partBytes}; small parts let tests cross many part boundaries. */
    TblFiles(Path dir, long partBytes) {
        this.dir = dir;
        this.partBytes = partBytes;
    }

    /** The file holding a table's rows. */
    public static Path file(Path dir, TpchSchema.Table table) {
        return dir.resolve(table.name() + ".tbl");
    }

    /** True when the directory holds a file for every TPC-H table. */
    public static boolean present(Path dir) {
        return TpchSchema.tables().stream().allMatch(t -> Files.isRegularFile(file(dir, t)));
    }

    @Override
    public int parts(TpchSchema.Table table) {
        return (int) Math.max(1, (size(table) + partBytes - 1) / partBytes);
    }

    @Override
    public RowCursor open(TpchSchema.Table table, int part) {
        long size = size(table);
        return new Cursor(file(dir, table), part * partBytes, Math.min(size, (part + 1) * partBytes), table.schema());
    }

    @Override
    public String describe() {
        return dir.toString();
    }

    private long size(TpchSchema.Table table) {
        try {
            return Files.size(file(dir, table));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read TPC-H table " + table.name() + " in " + dir, e);
        }
    }

    /**
     * Generates every table into {@code dir} (created if missing) using {@code threads} threads.
     * Each file is written under a temporary name and renamed when complete, so a file that
     * exists is whole.
     */
    public static LoadReport write(TpchGenerator generator, Path dir, int threads) {
        long start = System.nanoTime();
        List<LoadReport.TableLoad> tables = new ArrayList<>();
        ExecutorService pool = OrderedParallel.pool(threads, "tpch-gen");
        try {
            Files.createDirectories(dir);
            for (TpchSchema.Table table : TpchSchema.tables()) {
                long t0 = System.nanoTime();
                long rows = writeTable(generator, table, dir, pool, threads);
                tables.add(new LoadReport.TableLoad(table.name(), rows, System.nanoTime() - t0));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write TPC-H files to " + dir, e);
        } finally {
            pool.shutdownNow();
        }
        return new LoadReport(dir.toString(), tables, System.nanoTime() - start);
    }

    private record Text(byte[] bytes, long rows) {
    }

    private static long writeTable(TpchGenerator generator, TpchSchema.Table table, Path dir, ExecutorService pool, int threads)
            throws IOException {
        Path target = file(dir, table);
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        long rows = 0;
        try {
            try (OutputStream out = Files.newOutputStream(temporary);
                    OrderedParallel<Text> parts = new OrderedParallel<>(pool, generator.parts(table), 2 * threads,
                            part -> text(generator.rows(table, part)), text -> { })) {
                while (parts.hasNext()) {
                    Text text = parts.next();
                    out.write(text.bytes);
                    rows += text.rows;
                }
            }
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return rows;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    private static Text text(Iterable<? extends TpchEntity> rows) {
        StringBuilder s = new StringBuilder(1 << 20);
        long n = 0;
        for (TpchEntity row : rows) {
            s.append(row.toLine()).append('\n');
            n++;
        }
        return new Text(s.toString().getBytes(StandardCharsets.UTF_8), n);
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
            int to = fieldEnd[column];
            if (schema.type(column).kind() == TypeKind.CHAR) {
                while (to > fieldStart[column] && line[to - 1] == ' ') {
                    to--; // CHAR values carry no padding in WarpDB
                }
            }
            return new String(line, fieldStart[column], to - fieldStart[column], StandardCharsets.UTF_8);
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
