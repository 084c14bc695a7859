package io.warpdb.storage;

/**
 * What scans of a catalog have read since it opened.
 *
 * @param segmentsRead    segments whose column chunks a scan read
 * @param segmentsSkipped segments a scan skipped because their zone maps proved its predicates false
 * @param chunksRead      column chunks read (from memory, the cache or a file); only requested
 *                        columns of segments that were not skipped count
 */
public record ScanStats(long segmentsRead, long segmentsSkipped, long chunksRead) {
}
