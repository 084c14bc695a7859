package io.warpdb.exec.gpu.sort;

import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GPU ORDER BY / OFFSET / LIMIT against the CPU executor, compared in order. A row-number column
 * (unique BIGINT, never a key) makes any instability visible.
 */
class GpuSortTest extends GpuTestBase {
    @BeforeEach
    void needsGpu() {
        GpuTests.assumeGpu();
    }

    private void check(long seed, List<DataType> keyTypes, Options options, List<SortKey> keys, long offset, long limit) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < keyTypes.size(); i++) {
            fields.add(new Field("k" + i, keyTypes.get(i)));
        }
        fields.add(new Field("payload", DataType.BIGINT));
        Schema schema = new Schema(fields);
        RandomBatches random = new RandomBatches(seed);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, options)) {
                SortNode node = new SortNode(scan(source), keys, offset, limit);
                assertSameResult(node, source, (in, work) -> GpuSort.run(node, in, work), true,
                        "seed " + seed + ", rows " + rows + ", " + node.describe() + ", " + options);
            }
        }
    }

    @Test
    void everyTypeEveryDirectionAndNullPlacement() {
        long seed = 100;
        for (DataType type : RandomBatches.allTypes()) {
            for (boolean descending : new boolean[] {false, true}) {
                for (boolean nullsFirst : new boolean[] {false, true}) {
                    check(seed++, List.of(type), Options.plain().withNulls(0.15).withDistinct(30).withExtremes()
                            .withVaryingDictionaries(), List.of(new SortKey(0, descending, nullsFirst)), 0, -1);
                }
            }
        }
    }

    /**
     * Wide DECIMAL keys (a SUM's type): two keys to the radix sort, the upper word then the lower,
     * with values of every sign and both words' limits, alone and before a second key.
     */
    @Test
    void wideDecimalKeysEveryDirectionAndNullPlacement() {
        long seed = 150;
        for (DataType wide : List.of(DataType.decimal(38, 2), DataType.decimal(24, 0))) {
            for (boolean descending : new boolean[] {false, true}) {
                for (boolean nullsFirst : new boolean[] {false, true}) {
                    check(seed++, List.of(wide), Options.plain().withNulls(0.15).withExtremes(),
                            List.of(new SortKey(0, descending, nullsFirst)), 0, -1);
                    check(seed++, List.of(wide, DataType.INTEGER), Options.plain().withDistinct(20).withNulls(0.1),
                            List.of(new SortKey(0, descending, nullsFirst), new SortKey(1, false, false)), 1, 40);
                }
            }
        }
    }

    @Test
    void fullRangeKeysWithNullsAndExtremes() {
        // BIGINT extremes span all 64 bits, so NULL needs the separate flag pass.
        check(200, List.of(DataType.BIGINT), Options.plain().withExtremes().withNulls(0.1),
                List.of(new SortKey(0, false, true)), 0, -1);
        check(201, List.of(DataType.DOUBLE), Options.plain().withExtremes().withNulls(0.1),
                List.of(new SortKey(0, true, false)), 0, -1);
    }

    @Test
    void fullRangeKeysWithoutNulls() {
        // Without NULLs NULLS FIRST must not shift the codes: MIN to MAX of INTEGER needs all 32
        // bits, of BIGINT all 64 (the fuzzer found MAX sorted first).
        long seed = 210;
        for (DataType type : List.of(DataType.INTEGER, DataType.BIGINT)) {
            for (boolean descending : new boolean[] {false, true}) {
                check(seed++, List.of(type), Options.plain().withExtremes(), List.of(new SortKey(0, descending, true)), 0, -1);
            }
        }
    }

    @Test
    void severalKeysWithDuplicatesAndSkew() {
        check(300, List.of(DataType.VARCHAR, DataType.decimal(18, 4), DataType.BOOLEAN),
                Options.plain().withDistinct(5).withZipf().withNulls(0.2).withVaryingDictionaries(),
                List.of(new SortKey(0, false, false), new SortKey(1, true, true), new SortKey(2, false, true)), 0, -1);
    }

    @Test
    void offsetAndLimit() {
        List<SortKey> keys = List.of(new SortKey(0, true, false));
        check(400, List.of(DataType.INTEGER), Options.plain().withDistinct(100), keys, 0, 10);
        check(401, List.of(DataType.INTEGER), Options.plain().withDistinct(100), keys, 5, 40);
        check(402, List.of(DataType.INTEGER), Options.plain(), keys, 3000, -1);
        check(403, List.of(DataType.INTEGER), Options.plain(), keys, 10, 0);
    }

    @Test
    void limitWithoutKeysKeepsInputOrder() {
        check(500, List.of(DataType.INTEGER), Options.plain(), List.of(), 7, 20);
        check(501, List.of(DataType.INTEGER), Options.plain(), List.of(), 0, -1);
    }
}
