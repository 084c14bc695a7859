package io.warpdb.storage.encoding;

import io.warpdb.core.data.encoded.IntegerStream;
import io.warpdb.core.data.encoded.IntegerStream.RunLengths;
import java.util.Arrays;

/**
 * RLE: each run of equal neighbours becomes one value and one run length. The run values go on
 * to the rest of the cascade; the run lengths go straight to {@link FrameOfReferenceBitPack}
 * (see {@link Cascade} for why).
 *
 * <p>Wire: {@code i32 runCount, run values (rest of the cascade), run lengths (FOR+bitpack)}.
 */
final class RunLength implements IntegerEncoding {
    private final IntegerEncoding runValuesEncoding;

    RunLength(IntegerEncoding runValuesEncoding) {
        this.runValuesEncoding = runValuesEncoding;
    }

    /** The runs of a stream: {@code values[i]} repeated {@code lengths[i]} times. */
    record Runs(long[] values, long[] lengths) {
    }

    static Runs split(long[] values) {
        int runCount = 0;
        for (int i = 0; i < values.length; i++) {
            if (i == 0 || values[i] != values[i - 1]) {
                runCount++;
            }
        }
        long[] runValues = new long[runCount];
        long[] runLengths = new long[runCount];
        int run = -1;
        for (int i = 0; i < values.length; i++) {
            if (i == 0 || values[i] != values[i - 1]) {
                runValues[++run] = values[i];
            }
            runLengths[run]++;
        }
        return new Runs(runValues, runLengths);
    }

    @Override
    public Sizer sizer() {
        Sizer runValues = runValuesEncoding.sizer();
        Sizer runLengths = FrameOfReferenceBitPack.INSTANCE.sizer();
        return new Sizer() {
            private long value;
            private long length; // of the run of value so far; 0 before the first value and once counted

            @Override
            public void accept(long next) {
                if (length > 0 && next == value) {
                    length++;
                    return;
                }
                endRun();
                value = next;
                length = 1;
            }

            private void endRun() {
                if (length > 0) {
                    runValues.accept(value);
                    runLengths.accept(length);
                    length = 0;
                }
            }

            @Override
            public long bytes() {
                endRun();
                return Integer.BYTES + runValues.bytes() + runLengths.bytes();
            }
        };
    }

    @Override
    public int encode(long[] values, ByteWriter out) {
        Runs runs = split(values);
        out.putInt(runs.values().length);
        int width = runValuesEncoding.encode(runs.values(), out);
        FrameOfReferenceBitPack.INSTANCE.encode(runs.lengths(), out);
        return width;
    }

    @Override
    public RunLengths read(ByteReader in, int count) {
        int runCount = in.readCount();
        if (runCount > count) {
            throw new IllegalArgumentException("corrupt encoded chunk: " + runCount + " runs for " + count + " values");
        }
        IntegerStream runValues = runValuesEncoding.read(in, runCount);
        return new RunLengths(count, runValues, FrameOfReferenceBitPack.readPacked(in, runCount));
    }

    /** Decodes {@code runs} into {@code target[offset..offset+count)}. */
    static void expand(RunLengths runs, long[] target, int offset) {
        int runCount = runs.runCount();
        long[] runValues = new long[runCount];
        long[] runLengths = new long[runCount];
        Cascade.decode(runs.runValues(), runValues, 0);
        FrameOfReferenceBitPack.unpack(runs.runLengths(), runLengths, 0);
        int position = offset;
        int end = offset + runs.count();
        for (int run = 0; run < runCount; run++) {
            long length = runLengths[run];
            if (length <= 0 || length > end - position) {
                throw new IllegalArgumentException("corrupt encoded chunk: run lengths do not add up to " + runs.count());
            }
            Arrays.fill(target, position, position + (int) length, runValues[run]);
            position += (int) length;
        }
        if (position != end) {
            throw new IllegalArgumentException("corrupt encoded chunk: run lengths do not add up to " + runs.count());
        }
    }
}
