package io.warpdb.storage.encoding;

import io.warpdb.core.batch.StringDictionary;
import java.util.function.Supplier;

/**
 * Where the string dictionary of a chunk being read comes from: parsed from the chunk's bytes, or
 * the one parsed when the same chunk was read before. Parsing makes a String per entry, the
 * costliest part of reading a string chunk; and operators cache work per dictionary instance
 * (merged dictionaries, per-entry LIKE results, sort ranks), which a chunk read again reuses only
 * if its dictionary is the same instance. What was parsed also says where the entries end, so that
 * describing a chunk again goes straight to its codes instead of decoding every entry's length.
 */
@FunctionalInterface
public interface StringEntriesSource {
    /** Parses every time. */
    StringEntriesSource PARSE = Supplier::get;

    /** A chunk's dictionary, and the bytes its entries (lengths, then strings) take in the chunk. */
    record Entries(StringDictionary strings, int encodedBytes) {
    }

    /** The chunk's dictionary; {@code parse} reads it from the chunk's bytes. */
    Entries strings(Supplier<Entries> parse);
}
