package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.ChunkValidity;
import io.warpdb.core.data.encoded.ChunkValues;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.data.encoded.IntegerStream;
import java.nio.ByteBuffer;

/**
 * Decodes a chunk description the slowest, most literal way its documentation allows (bit by bit,
 * run by run), sharing no code with the codec: what a description means, checked independently of
 * the decoders that read it. Rows come out as {@link TestColumns#rows} gives them, strings as
 * codes into the chunk's dictionary.
 */
final class ReferenceDecoder {
    private ReferenceDecoder() {
    }

    /** Per row: null for NULL, else the value as a long (BOOLEAN 0/1, DOUBLE raw bits, strings their code). */
    static Long[] decode(EncodedColumnChunk chunk) {
        Long[] rows = new Long[chunk.rowCount()];
        long[] values = chunk.values() == null ? new long[chunk.rowCount()] : values(chunk);
        for (int i = 0; i < rows.length; i++) {
            rows[i] = valid(chunk.validity(), i) ? values[i] : null;
        }
        return rows;
    }

    static long[] stream(IntegerStream stream) {
        long[] out = new long[stream.count()];
        if (stream instanceof IntegerStream.BitPacked packed) {
            ByteBuffer words = packed.words().view();
            for (int i = 0; i < out.length; i++) {
                long offset = 0;
                for (int b = 0; b < packed.width(); b++) {
                    long bit = (long) i * packed.width() + b;
                    offset |= (long) ((words.get((int) (bit / 8)) >>> (bit % 8)) & 1) << b;
                }
                out[i] = packed.reference() + offset;
            }
        } else if (stream instanceof IntegerStream.RunLengths runs) {
            long[] runValues = stream(runs.runValues());
            long[] runLengths = stream(runs.runLengths());
            int at = 0;
            for (int run = 0; run < runValues.length; run++) {
                for (long k = 0; k < runLengths[run]; k++) {
                    out[at++] = runValues[run];
                }
            }
        } else {
            IntegerStream.Deltas deltas = (IntegerStream.Deltas) stream;
            long[] differences = stream(deltas.differences());
            long sum = deltas.first();
            for (int i = 0; i < out.length; i++) {
                out[i] = sum;
                sum += i < differences.length ? differences[i] : 0;
            }
        }
        return out;
    }

    private static long[] values(EncodedColumnChunk chunk) {
        ChunkValues values = chunk.values();
        if (values instanceof ChunkValues.Cascaded cascaded) {
            return stream(cascaded.values());
        }
        if (values instanceof ChunkValues.Dictionary dictionary) {
            long[] codes = stream(dictionary.codes());
            if (dictionary.entries() instanceof ChunkValues.NumericEntries numeric) {
                long[] entries = stream(numeric.sortedValues());
                for (int i = 0; i < codes.length; i++) {
                    codes[i] = entries[(int) codes[i]];
                }
            }
            return codes;
        }
        ByteBuffer plain = ((ChunkValues.Plain) values).bytes().view();
        long[] out = new long[chunk.rowCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = switch (chunk.layout()) {
                case BIT -> (plain.get(i / 8) >>> (i % 8)) & 1;
                case INT32 -> plain.getInt(i * 4);
                case INT64 -> plain.getLong(i * 8);
            };
        }
        return out;
    }

    private static boolean valid(ChunkValidity validity, int row) {
        if (validity instanceof ChunkValidity.NoNulls) {
            return true;
        }
        if (validity instanceof ChunkValidity.AllNull) {
            return false;
        }
        if (validity instanceof ChunkValidity.Bitmap bitmap) {
            return ((bitmap.bits().view().get(row / 8) >>> (row % 8)) & 1) != 0;
        }
        long[] runs = stream(((ChunkValidity.Runs) validity).lengths());
        long end = 0;
        for (int run = 0; run < runs.length; run++) {
            end += runs[run];
            if (row < end) {
                return run % 2 == 0;
            }
        }
        throw new AssertionError("validity runs end before row " + row);
    }
}
