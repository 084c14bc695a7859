package io.warpdb.cluster;

import java.util.List;

/**
 * {@code wire.compression}: which of a node's UCX streams carry their rows compressed ({@link
 * WireCodec}). Compression trades the sender's and receiver's CPU for bytes on the wire; between
 * processes of one host the wire is a memory copy, which it only slows (docs/benchmarks.md: on
 * loopback the uncompressed exchange was the faster one, and at TPC-H SF 50 on two GPUs of one
 * host the compressed broadcast of partsupp moved 140 MB/s).
 */
public enum WireCompression {
    /** The default: streams to a node of another host compressed, within a host plain. */
    AUTO,
    /** Every stream compressed, within a host too (tests of compression on loopback). */
    ALWAYS,
    /** No stream compressed. */
    NONE;

    /** Whether rows {@code from} sends to {@code to} are compressed. */
    public boolean between(Member from, Member to) {
        return this == ALWAYS || this == AUTO && !from.host().equals(to.host());
    }

    /**
     * Whether rows {@code self} sends to a member it does not know in advance (a fetch's answer to
     * whichever node asked) are compressed: under AUTO, where any member is on another host.
     */
    public boolean toAnyOf(Member self, List<Member> members) {
        return members.stream().anyMatch(m -> between(self, m));
    }

    /** How a node names it when it starts: empty for NONE. */
    String describe() {
        return switch (this) {
            case AUTO -> " (compressed between hosts)";
            case ALWAYS -> " (compressed)";
            case NONE -> "";
        };
    }
}
