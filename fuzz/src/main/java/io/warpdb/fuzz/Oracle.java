package io.warpdb.fuzz;

import java.util.Random;

/** A way to tell whether WarpDB answered a generated query correctly. */
public interface Oracle {
    /** "duckdb", "tlp" or "norec". */
    String name();

    /** A new case over the generator's dataset; {@code random} is the case's own (the generator draws from it too). */
    OracleCase generate(QueryGenerator generator, Random random);

    /** Runs the case on every WarpDB executor (and the reference, if any) and judges the answers. */
    Check check(OracleCase fuzzCase, Engines engines);
}
