package io.warpdb.tpcds;

import io.warpdb.tpch.TableParts;
import io.warpdb.tpch.TextTableFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * TPC-DS data as dsdgen {@code .dat} files in one directory, {@code <table>.dat}: one row a line,
 * each value followed by {@code |}, NULL as an empty value. Written by {@link
 * TpcdsGenerator#writeDat} ({@code warpdb tpcds gen}) or by dsdgen itself; each file is read as a
 * {@link TextTableFile}, in byte ranges that load concurrently.
 */
public record DatFiles(Path dir, long partBytes) {
    /** Files read in parts of {@link TextTableFile#PART_BYTES}; tests pass small parts to cross many part boundaries. */
    public DatFiles(Path dir) {
        this(dir, TextTableFile.PART_BYTES);
    }

    static String fileName(TpcdsSchema.Table table) {
        return table.name() + ".dat";
    }

    /** These tables, read from their files; fails before reading anything when a file is missing, naming each. */
    public List<TableParts> parts(List<TpcdsSchema.Table> tables) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no TPC-DS data directory " + dir + " (write it with: warpdb tpcds gen --sf <SF> --out "
                    + dir + ")");
        }
        String missing = tables.stream().map(t -> dir.resolve(fileName(t))).filter(f -> !Files.isRegularFile(f))
                .map(Path::toString).collect(Collectors.joining(", "));
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("missing TPC-DS data files: " + missing
                    + " (write them with: warpdb tpcds gen --sf <SF> --out " + dir + ")");
        }
        return tables.stream().map(t -> new TextTableFile(t.name(), dir.resolve(fileName(t)), t.schema(), partBytes).tableParts())
                .toList();
    }

    /** For messages: the directory. */
    public String describe() {
        return dir.toString();
    }
}
