package io.warpdb.exec.cpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MIN and MAX of strings by code while one dictionary serves every batch, by value once another
 * comes; ANY_VALUE keeps each group's first non-NULL value.
 */
class MinMaxAccumulatorTest {
    private static final StringDictionary NAMES = StringDictionary.ofValues(new String[] {"pear", "apple", "fig", "apple"});
    private static final StringDictionary OTHER = StringDictionary.ofValues(new String[] {"banana", "zucchini"});

    private static Column codes(StringDictionary dictionary, long... codes) {
        boolean[] nulls = new boolean[codes.length];
        for (int i = 0; i < codes.length; i++) {
            nulls[i] = codes[i] < 0;
        }
        return Column.ofCodes(DataType.VARCHAR, codes, nulls, dictionary);
    }

    private static List<String> values(Column column) {
        List<String> out = new ArrayList<>();
        for (int row = 0; row < column.size(); row++) {
            out.add(column.isNull(row) ? null : column.string(row));
        }
        return out;
    }

    @Test
    void oneDictionaryGivesItsCodesAnotherGivesValues() {
        MinMaxAccumulator min = new MinMaxAccumulator(AggFunction.MIN, DataType.VARCHAR);
        MinMaxAccumulator max = new MinMaxAccumulator(AggFunction.MAX, DataType.VARCHAR);
        // Groups 0..3: pear/apple/fig (repeated code 1 and its twin 3), fig only, NULL only, never seen.
        for (MinMaxAccumulator a : List.of(min, max)) {
            a.add(codes(NAMES, 0, 1, 2, -1), new int[] {0, 0, 1, 2}, 4);
            a.add(codes(NAMES, 3, 2, 0), new int[] {0, 1, -1}, 4);
        }
        Column mins = min.result(0, 4);
        assertSame(NAMES, mins.dictionary());
        assertEquals(Arrays.asList("apple", "fig", null, null), values(mins));
        assertEquals(Arrays.asList("pear", "fig", null, null), values(max.result(0, 4)));
        for (MinMaxAccumulator a : List.of(min, max)) {
            a.add(codes(OTHER, 0, 1, 1), new int[] {0, 1, 3}, 4);
        }
        assertEquals(Arrays.asList("apple", "fig", null, "zucchini"), values(min.result(0, 4)));
        assertEquals(Arrays.asList("pear", "zucchini", null, "zucchini"), values(max.result(0, 4)));
    }

    @Test
    void mergingPartialsOfOneDictionaryKeepsItsCodes() {
        MinMaxAccumulator whole = new MinMaxAccumulator(AggFunction.MIN, DataType.VARCHAR);
        MinMaxAccumulator partial = new MinMaxAccumulator(AggFunction.MIN, DataType.VARCHAR);
        whole.add(codes(NAMES, 0, 2), new int[] {0, 1}, 2);
        partial.add(codes(NAMES, 1, 0), new int[] {0, 1}, 2);
        whole.merge(partial, new int[] {1, 0}, 2);
        Column merged = whole.result(0, 2);
        assertSame(NAMES, merged.dictionary());
        assertEquals(List.of("pear", "apple"), values(merged));
    }

    @Test
    void anyValueKeepsTheFirstNonNullValueOfEachGroup() {
        MinMaxAccumulator any = new MinMaxAccumulator(AggFunction.ANY_VALUE, DataType.VARCHAR);
        any.add(codes(NAMES, -1, 2, 0, -1), new int[] {0, 0, 1, 2}, 4);
        any.add(codes(OTHER, 1, 0, 1), new int[] {0, 1, 3}, 4);
        assertEquals(Arrays.asList("fig", "pear", null, "zucchini"), values(any.result(0, 4)));

        MinMaxAccumulator numbers = new MinMaxAccumulator(AggFunction.ANY_VALUE, DataType.BIGINT);
        numbers.add(Column.ofLongs(DataType.BIGINT, new long[] {7, 3, 9}, new boolean[] {true, false, false}), new int[] {0, 0, 1}, 2);
        numbers.add(Column.ofLongs(DataType.BIGINT, new long[] {1, 2}, new boolean[2]), new int[] {0, 1}, 2);
        Column picked = numbers.result(0, 2);
        assertEquals(List.of(3L, 9L), List.of(picked.longs()[0], picked.longs()[1]));
    }
}
