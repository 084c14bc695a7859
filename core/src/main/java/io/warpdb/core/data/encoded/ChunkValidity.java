package io.warpdb.core.data.encoded;

/** Which rows of a chunk are NULL. */
public sealed interface ChunkValidity permits ChunkValidity.NoNulls, ChunkValidity.AllNull, ChunkValidity.Bitmap,
        ChunkValidity.Runs {
    NoNulls NO_NULLS = new NoNulls();
    AllNull ALL_NULL = new AllNull();

    record NoNulls() implements ChunkValidity {
    }

    /** Every row NULL: the chunk stores no values. */
    record AllNull() implements ChunkValidity {
    }

    /** Arrow's validity bitmap, {@code ceil(rowCount / 8)} bytes, bit set = valid, least significant first. */
    record Bitmap(ChunkSlice bits) implements ChunkValidity {
    }

    /** Lengths of alternating runs of valid and NULL rows, valid first (so the first may be 0), adding up to the rows. */
    record Runs(IntegerStream.BitPacked lengths) implements ChunkValidity {
    }
}
