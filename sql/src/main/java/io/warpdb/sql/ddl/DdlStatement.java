package io.warpdb.sql.ddl;

import io.warpdb.core.types.Schema;

/** The DDL statements WarpDB parses itself (Calcite 1.42's core parser has no DDL). */
public sealed interface DdlStatement {
    /**
     * CREATE TABLE. Either {@code schema} is given (column list), or {@code query} is the text of
     * the AS query, padded with spaces in place of the DDL prefix so that error positions still
     * point into the original statement; {@code columnNames} then optionally renames its columns.
     * {@code defaults}: the SQL text of each column's DEFAULT, by column name. {@code primaryKey}: the
     * PRIMARY KEY's columns in key order, empty when none is declared. {@code distribution}:
     * from {@code WITH (distribution = ...)} after the column list, null when not given.
     */
    record CreateTable(String name, boolean ifNotExists, Schema schema, String query, java.util.List<String> columnNames,
            java.util.Map<String, String> defaults, java.util.List<String> primaryKey, Distribution distribution) implements DdlStatement {
    }

    /** CREATE INDEX: accepted and checked against the table, but informational (WarpDB scans with zone maps, not indexes). */
    record CreateIndex(String name, String table, java.util.List<String> columns) implements DdlStatement {
    }

    record DropTable(String name, boolean ifExists) implements DdlStatement {
    }

    /** CREATE [OR REPLACE] VIEW; {@code query} is padded like {@link CreateTable#query()}. */
    record CreateView(String name, boolean orReplace, String query, java.util.List<String> columnNames) implements DdlStatement {
    }

    record DropView(String name, boolean ifExists) implements DdlStatement {
    }

    /** COPY table FROM 'file', ...: a bulk load; {@code options} by upper-case name, see {@link io.warpdb.ingest.LoadOptions}. */
    record Copy(String table, java.util.List<String> files, java.util.Map<String, String> options) implements DdlStatement {
    }
}
