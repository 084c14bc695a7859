package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.IntegerStream.Deltas;

/**
 * Delta: the first value, then each value minus its predecessor, which the rest of the cascade
 * encodes. Sorted keys become small, often constant, differences. The subtraction and the prefix
 * sum that undoes it both wrap, so every long round-trips exactly.
 *
 * <p>Wire: nothing for an empty stream, else {@code i64 first value, count-1 differences (rest of the cascade)}.
 */
final class Delta implements IntegerEncoding {
    private final IntegerEncoding differencesEncoding;

    Delta(IntegerEncoding differencesEncoding) {
        this.differencesEncoding = differencesEncoding;
    }

    static long[] differences(long[] values) {
        long[] differences = new long[Math.max(values.length - 1, 0)];
        for (int i = 1; i < values.length; i++) {
            differences[i - 1] = values[i] - values[i - 1];
        }
        return differences;
    }

    @Override
    public Sizer sizer() {
        Sizer differences = differencesEncoding.sizer();
        return new Sizer() {
            private boolean any;
            private long previous;

            @Override
            public void accept(long value) {
                if (any) {
                    differences.accept(value - previous);
                }
                any = true;
                previous = value;
            }

            @Override
            public long bytes() {
                return any ? Long.BYTES + differences.bytes() : 0;
            }
        };
    }

    @Override
    public int encode(long[] values, ByteWriter out) {
        if (values.length == 0) {
            return 0;
        }
        out.putLong(values[0]);
        return differencesEncoding.encode(differences(values), out);
    }

    @Override
    public Deltas read(ByteReader in, int count) {
        if (count == 0) {
            return Deltas.EMPTY;
        }
        long first = in.readLong();
        return new Deltas(count, first, differencesEncoding.read(in, count - 1));
    }

    /** Decodes {@code deltas} into {@code target[offset..offset+count)}. */
    static void integrate(Deltas deltas, long[] target, int offset) {
        if (deltas.count() == 0) {
            return;
        }
        target[offset] = deltas.first();
        // The differences land right behind the first value; a prefix sum in place turns them back.
        Cascade.decode(deltas.differences(), target, offset + 1);
        for (int i = offset + 1, end = offset + deltas.count(); i < end; i++) {
            target[i] += target[i - 1];
        }
    }
}
