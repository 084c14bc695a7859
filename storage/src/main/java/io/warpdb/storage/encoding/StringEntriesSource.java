package io.warpdb.storage.encoding;

import io.warpdb.core.batch.StringDictionary;
import java.util.function.Supplier;

/**
 * Where the string dictionary of a chunk being read comes from: parsed from the chunk's bytes, or
 * the one parsed when the same chunk was read before. Parsing makes a String per entry, the
 * costliest part of reading a string chunk; and operators cache work per dictionary instance
 * (merged dictionaries, per-entry LIKE results, sort ranks), which a chunk read again reuses only
 * if its dictionary is the same instance.
 */
@FunctionalInterface
public interface StringEntriesSource {
    /** Parses every time. */
    StringEntriesSource PARSE = Supplier::get;

    /** The chunk's dictionary; {@code parse} reads it from the chunk's bytes. */
    StringDictionary strings(Supplier<StringDictionary> parse);
}
