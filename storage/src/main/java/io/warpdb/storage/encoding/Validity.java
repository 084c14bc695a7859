package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.ChunkValidity;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * The validity layer, written before the values. Wire: {@code u8 kind}, then
 * <ul>
 *   <li>{@link Kind#NO_NULLS}: nothing;
 *   <li>{@link Kind#ALL_NULL}: nothing, and no values follow either;
 *   <li>{@link Kind#BITMAP}: Arrow's validity bitmap, ceil(rowCount / 8) bytes, bits past rowCount zero;
 *   <li>{@link Kind#RUNS}: {@code i32 runCount}, then the lengths of alternating runs of valid and
 *       NULL rows, valid first (so the first may be 0), FOR+bitpacked. Chosen over the bitmap when
 *       smaller, as it is whenever NULLs cluster.
 * </ul>
 */
final class Validity {
    enum Kind {
        NO_NULLS(0, ""),
        ALL_NULL(1, "all-null"),
        BITMAP(2, " nulls:bitmap"),
        RUNS(3, " nulls:runs");

        final int wireId;
        /** What a chunk's description says about its NULLs (ALL_NULL: the whole description). */
        final String description;

        Kind(int wireId, String description) {
            this.wireId = wireId;
            this.description = description;
        }

        static Kind ofWireId(int wireId) {
            for (Kind kind : values()) {
                if (kind.wireId == wireId) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("corrupt encoded chunk: unknown validity kind " + wireId);
        }
    }

    private Validity() {
    }

    /** Writes the validity of rows [0, rowCount) of {@code vector}; returns the kind chosen. */
    static Kind encode(FieldVector vector, int rowCount, ByteWriter out) {
        long[] runs = alternatingRuns(vector, rowCount);
        Kind kind;
        if (runs.length == 1) {
            kind = Kind.NO_NULLS;
        } else if (runs.length == 2 && runs[0] == 0) {
            kind = Kind.ALL_NULL;
        } else {
            long bitmapBytes = bitmapBytes(rowCount);
            long runsBytes = Integer.BYTES + FrameOfReferenceBitPack.INSTANCE.analyze(runs);
            kind = runsBytes < bitmapBytes ? Kind.RUNS : Kind.BITMAP;
        }
        out.putByte(kind.wireId);
        if (kind == Kind.BITMAP) {
            out.putBytes(bitmap(vector, rowCount));
        } else if (kind == Kind.RUNS) {
            out.putInt(runs.length);
            FrameOfReferenceBitPack.INSTANCE.encode(runs, out);
        }
        return kind;
    }

    /** Describes the validity layer of a chunk of {@code rowCount} rows, reading past it. */
    static ChunkValidity read(ByteReader in, int rowCount) {
        return switch (Kind.ofWireId(in.readByte())) {
            case NO_NULLS -> ChunkValidity.NO_NULLS;
            case ALL_NULL -> ChunkValidity.ALL_NULL;
            case BITMAP -> new ChunkValidity.Bitmap(in.readChunkSlice(bitmapBytes(rowCount)));
            case RUNS -> {
                int runCount = in.readCount();
                if (runCount > rowCount + 1) {
                    throw new IllegalArgumentException("corrupt encoded chunk: " + runCount + " validity runs");
                }
                yield new ChunkValidity.Runs(FrameOfReferenceBitPack.readPacked(in, runCount));
            }
        };
    }

    /** Decodes a described validity layer into a zeroed validity buffer. */
    static void decode(ChunkValidity described, int rowCount, ArrowBuf validity) {
        if (described instanceof ChunkValidity.NoNulls) {
            setValid(validity, 0, rowCount);
        } else if (described instanceof ChunkValidity.Bitmap bitmap) {
            validity.setBytes(0, bitmap.bits().view());
        } else if (described instanceof ChunkValidity.Runs runs) {
            long[] lengths = new long[runs.lengths().count()];
            FrameOfReferenceBitPack.unpack(runs.lengths(), lengths, 0);
            long row = 0;
            for (int run = 0; run < lengths.length; run++) {
                long end = row + lengths[run];
                if (lengths[run] < 0 || end > rowCount) {
                    throw new IllegalArgumentException("corrupt encoded chunk: validity runs exceed " + rowCount + " rows");
                }
                if (run % 2 == 0) {
                    setValid(validity, (int) row, (int) end);
                }
                row = end;
            }
        }
        // ALL_NULL: the buffer is already all zeros
    }

    private static long bitmapBytes(int rowCount) {
        return (rowCount + 7L) / 8;
    }

    /** Lengths of the alternating runs of valid and NULL rows, valid first; a single run means no NULLs. */
    private static long[] alternatingRuns(FieldVector vector, int rowCount) {
        if (vector.getNullCount() == 0 && rowCount <= vector.getValueCount()) {
            return new long[] {rowCount}; // the common case, counted a word at a time instead of a row at a time
        }
        int runCount = 1;
        boolean valid = true;
        for (int i = 0; i < rowCount; i++) {
            if (vector.isNull(i) == valid) {
                valid = !valid;
                runCount++;
            }
        }
        long[] runs = new long[runCount];
        int run = 0;
        valid = true;
        for (int i = 0; i < rowCount; i++) {
            if (vector.isNull(i) == valid) {
                valid = !valid;
                run++;
            }
            runs[run]++;
        }
        return runs;
    }

    private static byte[] bitmap(FieldVector vector, int rowCount) {
        byte[] bitmap = new byte[(int) bitmapBytes(rowCount)];
        vector.getValidityBuffer().getBytes(0, bitmap);
        if (rowCount % 8 != 0) {
            // Arrow leaves the bits past the last row undefined; zero them so equal chunks encode equally.
            bitmap[bitmap.length - 1] &= (byte) ((1 << (rowCount % 8)) - 1);
        }
        return bitmap;
    }

    /** Marks rows [from, to) valid, whole bytes at a time where it can. */
    private static void setValid(ArrowBuf validity, int from, int to) {
        int row = from;
        while (row < to && (row & 7) != 0) {
            BitVectorHelper.setBit(validity, row++);
        }
        int wholeBytes = (to - row) >>> 3;
        if (wholeBytes > 0) {
            validity.setOne((long) (row >>> 3), wholeBytes);
            row += wholeBytes << 3;
        }
        while (row < to) {
            BitVectorHelper.setBit(validity, row++);
        }
    }
}
