package io.warpdb.tpch;

import io.trino.tpch.TpchEntity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * TPC-H data as dbgen text files in one directory: {@code <table>.tbl}, one row per line, each
 * value followed by {@code |}, money with two decimals, dates as {@code yyyy-mm-dd}. Writes
 * what {@link TpchGenerator} generates ({@code warpdb tpch gen}) and reads such files, or
 * dbgen's own, back as {@link TpchData}, each file read as a {@link TextTableFile}.
 */
public final class TblFiles implements TpchData {
    private final Path dir;
    private final long partBytes;

    public TblFiles(Path dir) {
        this(dir, TextTableFile.PART_BYTES);
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
        return file(table).parts();
    }

    @Override
    public RowCursor open(TpchSchema.Table table, int part) {
        return file(table).open(part);
    }

    @Override
    public TableParts tableParts(TpchSchema.Table table) {
        return file(table).tableParts();
    }

    @Override
    public String describe() {
        return dir.toString();
    }

    private TextTableFile file(TpchSchema.Table table) {
        return new TextTableFile(table.name(), file(dir, table), table.schema(), partBytes);
    }

    /**
     * Generates every table into {@code dir} (created if missing) using {@code threads} threads.
     * Each file is written under a temporary name and renamed when complete, so a file that
     * exists is whole.
     */
    public static LoadReport write(TpchGenerator generator, Path dir, int threads) {
        List<TextFileWriter.Group> tables = TpchSchema.tables().stream()
                .map(t -> new TextFileWriter.Group(List.of(file(dir, t).getFileName().toString()), generator.parts(t),
                        part -> List.of(text(generator.rows(t, part)))))
                .toList();
        return TextFileWriter.write(dir, tables, threads);
    }

    private static TextFileWriter.Text text(Iterable<? extends TpchEntity> rows) {
        StringBuilder s = new StringBuilder(1 << 20);
        long n = 0;
        for (TpchEntity row : rows) {
            s.append(row.toLine()).append('\n');
            n++;
        }
        return new TextFileWriter.Text(s.toString().getBytes(StandardCharsets.UTF_8), n);
    }
}
