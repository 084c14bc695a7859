package io.warpdb.storage.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The integer layers on raw long streams: exact round trips, and analyze() equal to the bytes written. */
class IntegerLayersTest {
    @Test
    void bitPackingHandlesEveryWidthFromZeroTo64() {
        Random random = new Random(1);
        for (int width = 0; width <= 64; width++) {
            for (int count : new int[] {2, 63, 64, 65, 1000}) {
                // A reference low enough that reference + range does not overflow.
                long reference = width >= 63 ? Long.MIN_VALUE : random.nextLong() >> (width + 1);
                long range = width == 64 ? -1L : (1L << width) - 1;
                long[] values = new long[count];
                for (int i = 0; i < count; i++) {
                    long offset = width == 0 ? 0 : random.nextLong() & range;
                    values[i] = reference + offset;
                }
                values[0] = reference;
                values[count - 1] = reference + range;
                assertEquals(width, roundTrip(FrameOfReferenceBitPack.INSTANCE, values), "width " + width + ", " + count + " values");
            }
        }
    }

    @Test
    void bitPackingSpansTheFullLongRange() {
        long[] values = {Long.MAX_VALUE, Long.MIN_VALUE, 0, -1, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1};
        assertEquals(64, roundTrip(FrameOfReferenceBitPack.INSTANCE, values));
        assertEquals(64, FrameOfReferenceBitPack.bitWidth(Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals(64, FrameOfReferenceBitPack.bitWidth(-1, Long.MAX_VALUE));
        assertEquals(63, FrameOfReferenceBitPack.bitWidth(0, Long.MAX_VALUE));
        assertEquals(0, FrameOfReferenceBitPack.bitWidth(Long.MIN_VALUE, Long.MIN_VALUE));
    }

    @Test
    void everyCandidateCascadeRoundTripsEveryStreamShape() {
        for (Map.Entry<String, long[]> stream : streams().entrySet()) {
            for (Cascade cascade : Cascade.CANDIDATES) {
                String what = cascade + " on " + stream.getKey();
                long[] values = stream.getValue();
                ByteWriter out = new ByteWriter();
                cascade.write(values, out);
                assertEquals(cascade.analyze(values), out.size(), what + ": analyze must equal the bytes written");
                long[] decoded = new long[values.length];
                ByteReader in = new ByteReader(ByteBuffer.wrap(out.toByteArray()));
                Cascade.read(in, decoded, values.length);
                assertArrayEquals(values, decoded, what);
            }
        }
    }

    @Test
    void layersDecodeAtAnOffsetWithoutTouchingTheirNeighbours() {
        long[] values = {5, 5, 5, 6, 7, 7, 100, -3};
        for (IntegerEncoding layer : List.of(FrameOfReferenceBitPack.INSTANCE, new RunLength(FrameOfReferenceBitPack.INSTANCE),
                new Delta(FrameOfReferenceBitPack.INSTANCE))) {
            ByteWriter out = new ByteWriter();
            layer.encode(values, out);
            long[] target = new long[values.length + 6];
            java.util.Arrays.fill(target, 42);
            layer.decode(new ByteReader(ByteBuffer.wrap(out.toByteArray())), target, 3, values.length);
            assertArrayEquals(values, java.util.Arrays.copyOfRange(target, 3, 3 + values.length));
            assertArrayEquals(new long[] {42, 42, 42, 42, 42, 42},
                    LongStream.concat(LongStream.of(target).limit(3), LongStream.of(target).skip(3 + values.length)).toArray());
        }
    }

    @Test
    void runLengthSplitsIntoValuesAndLengths() {
        RunLength.Runs runs = RunLength.split(new long[] {4, 4, 4, 1, 2, 2, 4});
        assertArrayEquals(new long[] {4, 1, 2, 4}, runs.values());
        assertArrayEquals(new long[] {3, 1, 2, 1}, runs.lengths());
    }

    @Test
    void deltaDifferencesWrapAround() {
        assertArrayEquals(new long[] {Long.MIN_VALUE + 1 - Long.MAX_VALUE, -1},
                Delta.differences(new long[] {Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE}));
    }

    @Test
    void candidatesInterleaveLayersAsNvcompDoes() {
        assertEquals(List.of("bitpack", "delta+bitpack", "rle+bitpack", "rle+delta+bitpack", "rle+delta+rle+bitpack"),
                Cascade.CANDIDATES.stream().map(Cascade::toString).toList());
        assertEquals("rle+delta+rle+bitpack(5)", Cascade.interleaved(2, 1).describe(5));
    }

    @Test
    void distinctValuesAreFoundExactlyOrGivenUpOnPastTheLimit() {
        long[] values = {0, 7, Long.MIN_VALUE, 7, 0, Long.MAX_VALUE, -1, -1};
        assertArrayEquals(new long[] {Long.MIN_VALUE, -1, 0, 7, Long.MAX_VALUE}, DistinctValues.sortedUpTo(values, 5));
        assertEquals(null, DistinctValues.sortedUpTo(values, 4));
        long[] many = LongStream.range(0, 100_000).map(i -> i * 31 % 50_000).toArray();
        assertArrayEquals(LongStream.range(0, 50_000).toArray(), DistinctValues.sortedUpTo(many, Integer.MAX_VALUE));
    }

    /** Encodes and decodes; checks analyze() and the values; returns the width encode() reported. */
    private static int roundTrip(IntegerEncoding encoding, long[] values) {
        ByteWriter out = new ByteWriter();
        int width = encoding.encode(values, out);
        assertEquals(encoding.analyze(values), out.size());
        long[] decoded = new long[values.length];
        encoding.decode(new ByteReader(ByteBuffer.wrap(out.toByteArray())), decoded, 0, values.length);
        assertArrayEquals(values, decoded);
        return width;
    }

    private static Map<String, long[]> streams() {
        Random random = new Random(2);
        Map<String, long[]> streams = new LinkedHashMap<>();
        streams.put("empty", new long[0]);
        streams.put("one value", new long[] {Long.MIN_VALUE});
        streams.put("all equal", LongStream.generate(() -> -7).limit(1000).toArray());
        streams.put("sorted", LongStream.range(0, 1000).map(i -> i * 3).toArray());
        streams.put("reverse sorted", LongStream.range(0, 1000).map(i -> -i * 5).toArray());
        streams.put("random", random.longs(1000).toArray());
        streams.put("small range", random.longs(1000, -4, 4).toArray());
        streams.put("runs", LongStream.range(0, 1000).map(i -> i / 37 % 3).toArray());
        streams.put("wrapping deltas", LongStream.range(0, 65).map(i -> i % 2 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE).toArray());
        streams.put("sorted keys with repeats", LongStream.range(0, 1000).map(i -> i / 3 + i / 24 * 25).toArray());
        return streams;
    }
}
