package io.warpdb.fuzz.ast;

/**
 * A sort key by result column number (1-based). NULL placement is always explicit: the engines'
 * defaults differ for DESC.
 */
public record OrderKey(int ordinal, boolean descending, boolean nullsFirst) {
    public String render() {
        return ordinal + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
