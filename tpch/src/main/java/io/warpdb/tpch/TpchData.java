package io.warpdb.tpch;

/**
 * Where TPC-H rows come from: generated at a scale factor ({@link TpchGenerator}) or read from
 * dbgen {@code .tbl} files ({@link TblFiles}). Each table is split into parts that may be read
 * concurrently, one cursor per part; reading all parts in order yields the table in row order.
 */
public interface TpchData {
    /** How many parts this table is split into (at least 1). */
    int parts(TpchSchema.Table table);

    /** A cursor over part {@code part} (0-based) of the table. */
    RowCursor open(TpchSchema.Table table, int part);

    /** The table to load. */
    default TableParts tableParts(TpchSchema.Table table) {
        return new TableParts(table.name(), table.schema(), parts(table), part -> open(table, part));
    }

    /** For messages, e.g. {@code SF 0.1} or {@code /data/tpch}. */
    String describe();
}
