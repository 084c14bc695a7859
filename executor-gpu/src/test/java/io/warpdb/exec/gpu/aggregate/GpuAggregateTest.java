package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GPU aggregation against the CPU executor on random inputs, every path forced. */
class GpuAggregateTest extends GpuTestBase {
    @BeforeEach
    void needsGpu() {
        GpuTests.assumeGpu();
    }

    /** Groups by the first {@code keyCount} columns with COUNT(*) and COUNT, MIN, MAX (SUM, AVG where they apply) of every column. */
    static AggregateNode node(ListSource source, int keyCount) {
        Schema in = source.schema();
        List<AggCall> calls = new ArrayList<>();
        calls.add(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"));
        for (int c = 0; c < in.size(); c++) {
            DataType t = in.type(c);
            calls.add(new AggCall(AggFunction.COUNT, List.of(c), false, DataType.BIGINT, "count" + c));
            calls.add(new AggCall(AggFunction.MIN, List.of(c), false, t, "min" + c));
            calls.add(new AggCall(AggFunction.MAX, List.of(c), false, t, "max" + c));
            if (RandomBatches.summable(t)) {
                DataType sum = t.kind() == TypeKind.DOUBLE ? DataType.DOUBLE
                        : t.kind() == TypeKind.DECIMAL ? DataType.decimal(18, t.scale()) : DataType.BIGINT;
                calls.add(new AggCall(AggFunction.SUM, List.of(c), false, sum, "sum" + c));
                DataType avg = t.kind() == TypeKind.DECIMAL ? DataType.decimal(18, t.scale() + 2) : DataType.DOUBLE;
                calls.add(new AggCall(AggFunction.AVG, List.of(c), false, avg, "avg" + c));
                if (t.kind() == TypeKind.INTEGER) {
                    calls.add(new AggCall(AggFunction.AVG, List.of(c), false, DataType.INTEGER, "avgint" + c));
                }
            }
        }
        return node(source, keyCount, calls);
    }

    /**
     * Groups by the first {@code keyCount} columns with COUNT(*) and ANY_VALUE of every key column:
     * each group holds one value of each (NULL included), so the GPU's pick and the CPU's agree.
     */
    static AggregateNode anyValueOfKeys(ListSource source, int keyCount) {
        List<AggCall> calls = new ArrayList<>();
        calls.add(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"));
        for (int k = 0; k < keyCount; k++) {
            calls.add(new AggCall(AggFunction.ANY_VALUE, List.of(k), false, source.schema().type(k), "any" + k));
        }
        return node(source, keyCount, calls);
    }

    /** Groups by the first {@code keyCount} columns with {@code calls}. */
    static AggregateNode node(ListSource source, int keyCount, List<AggCall> calls) {
        List<Field> out = new ArrayList<>();
        List<Integer> keys = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys.add(k);
            out.add(source.schema().field(k));
        }
        calls.forEach(call -> out.add(new Field(call.name(), call.type())));
        return new AggregateNode(scan(source), keys, calls, new Schema(out));
    }

    private void check(long seed, Schema schema, int keyCount, Options options, AggregationPath path) {
        RandomBatches random = new RandomBatches(seed);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, options)) {
                AggregateNode node = node(source, keyCount);
                assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, path), false,
                        "seed " + seed + ", rows " + rows + ", path " + path + ", " + options);
            }
        }
    }

    /** Columns c0, c1, ... of these types. */
    static Schema schema(DataType... types) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            fields.add(new Field("c" + i, types[i]));
        }
        return new Schema(fields);
    }

    private static Schema allTypes() {
        return schema(RandomBatches.allTypes().toArray(new DataType[0]));
    }

    /** COUNT/SUM/AVG(DISTINCT x) with MIN/MAX(x), grouped and not: two group-bys on the GPU. */
    @Test
    void distinctAggregatesOverOneArgument() {
        Schema s = schema(DataType.VARCHAR, DataType.INTEGER, DataType.decimal(12, 2));
        RandomBatches random = new RandomBatches(70);
        for (int keyCount : new int[] {0, 1}) {
            for (int rows : RandomBatches.SIZES) {
                try (ListSource source = randomSource(random, s, rows, Options.plain().withDistinct(30).withNulls(0.1))) {
                    for (int arg : new int[] {1, 2}) {
                        DataType t = s.type(arg);
                        DataType sum = t.kind() == TypeKind.DECIMAL ? DataType.decimal(18, t.scale()) : DataType.BIGINT;
                        DataType avg = t.kind() == TypeKind.DECIMAL ? DataType.decimal(18, t.scale() + 2) : DataType.DOUBLE;
                        List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT, List.of(arg), true, DataType.BIGINT, "cd"),
                                new AggCall(AggFunction.SUM, List.of(arg), true, sum, "sd"),
                                new AggCall(AggFunction.AVG, List.of(arg), true, avg, "ad"),
                                new AggCall(AggFunction.MAX, List.of(arg), false, t, "mx"));
                        List<Field> out = new ArrayList<>();
                        List<Integer> keys = keyCount == 0 ? List.of() : List.of(0);
                        keys.forEach(k -> out.add(s.field(k)));
                        calls.forEach(c -> out.add(new Field(c.name(), c.type())));
                        AggregateNode node = new AggregateNode(scan(source), keys, calls, new Schema(out));
                        assertEquals(io.warpdb.core.exec.Support.YES, GpuAggregate.supports(node));
                        assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work), false,
                                "distinct, seed 70, rows " + rows + ", keys " + keyCount + ", arg " + arg);
                    }
                }
            }
        }
    }

    @Test
    void ungroupedOverEveryType() {
        check(1, allTypes(), 0, Options.plain().withNulls(0.1), AggregationPath.UNGROUPED);
        check(2, allTypes(), 0, Options.plain(), null);
    }

    @Test
    void ungroupedExtremesOverflowLikeTheCpu() {
        check(3, schema(DataType.BIGINT, DataType.decimal(18, 4), DataType.DOUBLE), 0,
                Options.plain().withExtremes().withNulls(0.05), AggregationPath.UNGROUPED);
        check(4, schema(DataType.INTEGER, DataType.DOUBLE), 0, Options.plain().withExtremes(), AggregationPath.UNGROUPED);
    }

    /**
     * SUM and AVG of SMALLINT, TINYINT and REAL (BIGINT and DOUBLE, as the sql layer types them; AVG
     * typed INTEGER too), with their limits, infinities and NaN, ungrouped and grouped by a SMALLINT on both paths.
     */
    @Test
    void sumsAndAveragesOfNarrowTypes() {
        Schema s = schema(DataType.SMALLINT, DataType.TINYINT, DataType.REAL);
        check(80, s, 0, Options.plain().withNulls(0.1).withExtremes(), AggregationPath.UNGROUPED);
        check(81, s, 1, Options.plain().withDistinct(40).withNulls(0.1).withExtremes(), AggregationPath.HASH);
        check(82, s, 1, Options.plain().withNulls(0.1).withExtremes().withZipf(), AggregationPath.SORT);
    }

    @Test
    void hashPathOnEveryKeyType() {
        for (DataType key : RandomBatches.allTypes()) {
            Schema s = schema(key, DataType.BIGINT, DataType.DOUBLE, DataType.VARCHAR);
            // Random 64-bit values (even 40 distinct ones) span too wide a range to pack: the rule sends them to SORT.
            boolean packs = key.kind() != TypeKind.DOUBLE && key.kind() != TypeKind.BIGINT && key.kind() != TypeKind.DECIMAL;
            check(10 + key.hashCode(), s, 1, Options.plain().withDistinct(40).withNulls(0.1).withVaryingDictionaries(),
                    packs ? AggregationPath.HASH : null);
        }
    }

    @Test
    void sortPathOnEveryKeyType() {
        for (DataType key : RandomBatches.allTypes()) {
            Schema s = schema(key, DataType.decimal(12, 2), DataType.INTEGER);
            check(20 + key.hashCode(), s, 1, Options.plain().withDistinct(40).withNulls(0.1).withZipf(), AggregationPath.SORT);
        }
    }

    @Test
    void multipleKeysSkewedAndExtremeOnBothPaths() {
        Schema s = schema(DataType.VARCHAR, DataType.DOUBLE, DataType.BOOLEAN, DataType.DATE, DataType.BIGINT);
        Options o = Options.plain().withDistinct(7).withZipf().withNulls(0.2).withExtremes().withVaryingDictionaries();
        // DOUBLE and BIGINT extremes need 65 bits each: these keys only sort.
        check(31, s, 4, o, AggregationPath.SORT);
        check(32, s, 4, o, null);
        Schema packable = schema(DataType.VARCHAR, DataType.BOOLEAN, DataType.DATE, DataType.BIGINT);
        check(30, packable, 3, o, AggregationPath.HASH);
    }

    @Test
    void unpackableKeysTakeTheSortPath() {
        // Two unbounded BIGINT keys need more than 63 bits: the rule must pick SORT.
        check(40, schema(DataType.BIGINT, DataType.BIGINT, DataType.INTEGER), 2, Options.plain().withExtremes(), null);
    }

    @Test
    void fewGroupsMergedPerWarp() {
        // Up to GroupByTuning.REGISTER_MAX_GROUPS groups in registers, then up to WARP_MERGE_MAX_GROUPS merged per warp (the
        // NULL key is one more): every aggregate over every type.
        for (int distinct : new int[] {1, 2, 3, 4, 5, 7, 8, 9}) {
            check(60 + distinct, allTypes(), 1, Options.plain().withDistinct(distinct).withNulls(0.1).withExtremes(),
                    AggregationPath.HASH);
        }
        check(70, allTypes(), 1, Options.plain().withDistinct(3).withZipf(), AggregationPath.HASH);
    }

    @Test
    void manyDistinctGroups() {
        check(50, schema(DataType.INTEGER, DataType.decimal(12, 2)), 1, Options.plain(), AggregationPath.HASH);
        check(51, schema(DataType.INTEGER, DataType.decimal(12, 2)), 1, Options.plain(), AggregationPath.SORT);
    }

    /** ANY_VALUE of every type, strings by their codes (no ranks), on both paths; of a wide DECIMAL too. */
    @Test
    void anyValueOfEveryType() {
        Schema s = schema(DataType.VARCHAR, DataType.INTEGER, DataType.DOUBLE, DataType.BOOLEAN, DataType.DATE, DataType.decimal(12, 2),
                DataType.decimal(30, 4));
        RandomBatches random = new RandomBatches(61);
        for (AggregationPath path : new AggregationPath[] {AggregationPath.HASH, AggregationPath.SORT}) {
            for (Options o : List.of(Options.plain().withNulls(0.1).withDistinct(7), Options.plain().withVaryingDictionaries())) {
                for (int rows : RandomBatches.SIZES) {
                    try (ListSource source = randomSource(random, s, rows, o)) {
                        // The string key alone (many rows a group), then every column a key (one value each a group;
                        // seven keys pack into no 63-bit hash key, so the tuning picks the path).
                        for (int keys : new int[] {1, s.size()}) {
                            AggregateNode node = anyValueOfKeys(source, keys);
                            AggregationPath forced = keys == 1 ? path : null;
                            assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, forced), false,
                                    "seed 61, rows " + rows + ", " + keys + " key(s), " + path + ", " + o);
                        }
                    }
                }
            }
        }
    }

    @Test
    void singleValue() {
        Schema s = schema(DataType.INTEGER, DataType.VARCHAR, DataType.DOUBLE);
        for (AggregationPath path : new AggregationPath[] {AggregationPath.HASH, AggregationPath.SORT}) {
            RandomBatches random = new RandomBatches(60);
            for (int distinct : new int[] {0, 5}) {
                // Unbounded distinct INTEGER keys are almost all unique groups (some collide: 21000 then, on both sides).
                Options o = distinct == 0 ? Options.plain().withNulls(0.1) : Options.plain().withDistinct(distinct);
                for (int rows : List.of(0, 1, 33, 2049)) {
                    try (ListSource source = randomSource(random, s, rows, o)) {
                        List<AggCall> calls = List.of(new AggCall(AggFunction.SINGLE_VALUE, List.of(1), false, DataType.VARCHAR, "v"),
                                new AggCall(AggFunction.SINGLE_VALUE, List.of(2), false, DataType.DOUBLE, "d"));
                        AggregateNode node = new AggregateNode(scan(source), List.of(0), calls,
                                schema(DataType.INTEGER, DataType.VARCHAR, DataType.DOUBLE));
                        assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, path), false,
                                "seed 60, rows " + rows + ", " + path + ", distinct " + distinct);
                    }
                }
            }
        }
    }
}
