package io.warpdb.cluster;

/** A stream of rows from another node that knows how many bytes it took on the wire (after compression). */
interface WireMeasured {
    long wireBytes();
}
