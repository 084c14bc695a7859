package io.warpdb.ingest;

/**
 * How one CSV file is written. {@code escape} equal to {@code quote} is RFC 4180's doubled
 * quote; a NULL is an unquoted field equal to {@code nullString}. {@code trailingDelimiter}:
 * every record ends with a delimiter, as in TPC-H's dbgen {@code .tbl} files.
 */
public record CsvDialect(byte delimiter, byte quote, byte escape, boolean header, String nullString, boolean trailingDelimiter) {
}
