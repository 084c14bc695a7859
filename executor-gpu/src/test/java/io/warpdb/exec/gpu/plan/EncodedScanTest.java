package io.warpdb.exec.gpu.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.ColumnPredicate.Comparison;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ResultAssert;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.StorageOptions;
import io.warpdb.storage.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.LongPredicate;
import java.util.stream.IntStream;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU scan of a durable table: its stored chunks travel to the device encoded and are decoded
 * there, and every plan over them (filter, projection, aggregation, join) gives the CPU executor's
 * answer. The table has several segments from two appends (so string dictionaries differ between
 * segments), and per segment other shapes (sorted keys, runs, random values, all-equal and all-NULL
 * columns, scattered NULLs), so the selector stores them in mixed encodings. Also: zone maps
 * prune segments before anything is copied, whole columns are cached and found again, in-memory
 * tables (which hold the same encoded chunks) decode on the device too, and segments with deleted
 * rows still go through host batches.
 */
class EncodedScanTest extends GpuTestBase {
    private static final int SEGMENT_ROWS = 1000;
    private static final int FIRST_APPEND = 3000;
    private static final int ROWS = 5500;
    private static final Schema FACTS = Schema.of(
            new Field("k", DataType.BIGINT.withNullable(false)),
            new Field("g", DataType.INTEGER),
            new Field("price", DataType.decimal(12, 2)),
            new Field("d", DataType.DATE),
            new Field("s", DataType.varchar(12)),
            new Field("flag", DataType.BOOLEAN),
            new Field("x", DataType.DOUBLE));
    private static final Schema DIMS = Schema.of(
            new Field("g", DataType.INTEGER),
            new Field("label", DataType.varchar(12)));
    private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta");

    @TempDir
    Path dir;
    private Catalog durable;
    private Table facts;
    private Table dims;

    @BeforeEach
    void load() {
        GpuTests.assumeGpu();
        GpuExecutorProvider.evictCachedColumns();
        durable = Catalog.open(dir, allocator, StorageOptions.defaults().withSegmentRows(SEGMENT_ROWS));
        facts = durable.create("facts", FACTS, false);
        dims = durable.create("dims", DIMS, false);
        fill(facts, dims);
    }

    @AfterEach
    void close() {
        // Cached columns hold device memory, which the base class checks is all freed.
        GpuExecutorProvider.evictCachedColumns();
        if (durable != null) {
            durable.close();
        }
    }

    private void fill(Table factTable, Table dimTable) {
        append(factTable, FACTS, 0, FIRST_APPEND, EncodedScanTest::factRow);
        append(factTable, FACTS, FIRST_APPEND, ROWS, EncodedScanTest::factRow);
        append(dimTable, DIMS, 0, 9, g -> List.<Object>of(g, WORDS.get((int) (7 * g % WORDS.size())) + g));
    }

    /**
     * Row {@code k}: segment 1 has a constant price and no strings; segment 3 random groups; NULLs
     * scattered elsewhere, and none at all in the sorted key.
     */
    private static List<Object> factRow(long k) {
        long segment = k / SEGMENT_ROWS;
        long mix = k * 0x9E3779B97F4A7C15L >>> 40;
        List<Object> row = new ArrayList<>();
        row.add(k);
        row.add(k % 11 == 0 ? null : segment == 3 ? mix % 1000 : k % 7);
        // Boxed on both sides: a primitive 1999L would unbox the inner NULL.
        row.add(segment == 1 ? Long.valueOf(1999L) : k % 17 == 0 ? null : Long.valueOf(mix % 1_000_000));
        row.add(8000 + k / 100);
        row.add(segment == 1 || k % 13 == 0 ? null : WORDS.get((int) ((k / 3 + segment) % WORDS.size())));
        row.add(k % 5 == 0 ? null : k % 3 == 0);
        row.add(segment == 4 ? null : (mix % 4096) * 0.25);
        return row;
    }

    /** Appends rows {@code [from, to)} as one batch with its own string dictionaries. */
    private void append(Table table, Schema schema, long from, long to, LongFunction<List<Object>> rowOf) {
        List<List<Object>> rows = new ArrayList<>();
        for (long k = from; k < to; k++) {
            rows.add(rowOf.apply(k));
        }
        try (BatchStream stream = Batches.of(schema, List.of(batch(schema, rows)))) {
            table.append(stream);
        }
    }

    private Batch batch(Schema schema, List<List<Object>> rows) {
        List<FieldVector> vectors = new ArrayList<>();
        List<StringDictionary> dictionaries = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            DataType type = schema.type(c);
            FieldVector v = Vectors.allocate(schema.field(c).name(), type, rows.size(), allocator);
            Map<String, Integer> codes = new LinkedHashMap<>();
            for (int r = 0; r < rows.size(); r++) {
                Object value = rows.get(r).get(c);
                if (value != null && type.kind().isString()) {
                    value = codes.computeIfAbsent((String) value, s -> codes.size());
                }
                Vectors.setNormalized(v, type, r, value);
            }
            v.setValueCount(rows.size());
            vectors.add(v);
            dictionaries.add(type.kind().isString() ? StringDictionary.ofDistinct(List.copyOf(codes.keySet())) : null);
        }
        return new Batch(schema, vectors, dictionaries, rows.size());
    }

    private static ScanNode scanAll(TableSource source, List<ColumnPredicate> predicates) {
        List<Integer> all = IntStream.range(0, source.schema().size()).boxed().toList();
        return new ScanNode(source, all, source.schema(), predicates);
    }

    private static Expr col(int i, DataType type) {
        return new ColumnRef(i, type);
    }

    /** Runs {@code plan} on the GPU, checks its rows against the CPU's, and returns the statistics of {@code scan}. */
    private NodeStats assertGpuMatchesCpu(PlanNode plan, ScanNode scan, String what) {
        return scanStats(assertGpuMatchesCpu(plan, what), scan, what);
    }

    /** Runs {@code plan} on the GPU and checks its rows against the CPU's; returns the run's context. */
    private ExecContext assertGpuMatchesCpu(PlanNode plan, String what) {
        List<List<Object>> expected = cpuRows(plan);
        ExecContext context = placedContext(plan, "gpu");
        List<List<Object>> actual = ResultAssert.rows(context.run(plan));
        ResultAssert.assertSameRows(expected, actual, what);
        return context;
    }

    private static NodeStats scanStats(ExecContext context, ScanNode scan, String what) {
        NodeStats stats = context.stats(scan);
        assertEquals("gpu", stats.executor(), what + ": the scan ran on the GPU");
        return stats;
    }

    private static boolean decodedOnGpu(NodeStats stats) {
        return stats.notes().stream().anyMatch(n -> n.startsWith("decoded on gpu: "));
    }

    @Test
    void filterOverZoneMapPrunedSegmentsDecodesOnlyTheKeptOnes() {
        ScanNode scan = scanAll(facts.snapshot(), List.of(
                new ColumnPredicate(0, Comparison.GE, Literal.ofLong(4200, DataType.BIGINT))));
        Expr condition = Call.of(Op.AND, DataType.BOOLEAN,
                Call.of(Op.GE, DataType.BOOLEAN, col(0, DataType.BIGINT), Literal.ofLong(4200, DataType.BIGINT)),
                Call.of(Op.NE, DataType.BOOLEAN, col(1, DataType.INTEGER), Literal.ofLong(3, DataType.INTEGER)));
        NodeStats stats = assertGpuMatchesCpu(new FilterNode(scan, condition), scan, "filter k >= 4200 and g <> 3");
        assertTrue(stats.notes().contains("decoded on gpu: 2 segments, " + megabytes(stats.bytesToDevice()) + " MB encoded -> "
                + megabytes(decodedBytes(1500)) + " MB"), "notes: " + stats.notes());
        assertTrue(stats.notes().contains("zone maps skipped 4000 of " + ROWS + " rows"), "notes: " + stats.notes());
    }

    @Test
    void projectionOfEveryTypeDecodedOnGpuAndCachedWhole() {
        ScanNode scan = scanAll(facts.snapshot(), List.of());
        List<Expr> exprs = List.of(
                col(0, DataType.BIGINT),
                Call.of(Op.ADD, DataType.decimal(13, 2), col(2, DataType.decimal(12, 2)), col(2, DataType.decimal(12, 2))),
                col(3, DataType.DATE),
                col(4, DataType.varchar(12)),
                col(5, DataType.BOOLEAN),
                Call.of(Op.MULTIPLY, DataType.DOUBLE, col(6, DataType.DOUBLE), col(6, DataType.DOUBLE)),
                col(1, DataType.INTEGER));
        Schema out = Schema.of(new Field("k", DataType.BIGINT), new Field("p2", DataType.decimal(13, 2)),
                new Field("d", DataType.DATE), new Field("s", DataType.varchar(12)), new Field("flag", DataType.BOOLEAN),
                new Field("x2", DataType.DOUBLE), new Field("g", DataType.INTEGER));
        PlanNode plan = new ProjectNode(scan, exprs, out);
        NodeStats first = assertGpuMatchesCpu(plan, scan, "projection");
        assertTrue(decodedOnGpu(first), "notes: " + first.notes());
        assertTrue(first.bytesToDevice() > 0 && first.bytesToDevice() < decodedBytes(ROWS),
                "encoded bytes copied: " + first.bytesToDevice() + " of " + decodedBytes(ROWS) + " decoded");

        NodeStats again = assertGpuMatchesCpu(plan, scan, "projection, columns cached");
        assertEquals(0, again.bytesToDevice(), "the whole columns were cached by the first run");
        assertFalse(decodedOnGpu(again), "notes: " + again.notes());
    }

    @Test
    void groupedAggregateOverStringsAndNulls() {
        ScanNode scan = scanAll(facts.snapshot(), List.of());
        AggregateNode plan = new AggregateNode(scan, List.of(4, 1), List.of(
                new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"),
                new AggCall(AggFunction.SUM, List.of(2), false, DataType.decimal(18, 2), "total"),
                new AggCall(AggFunction.MIN, List.of(3), false, DataType.DATE, "first"),
                new AggCall(AggFunction.MAX, List.of(6), false, DataType.DOUBLE, "top"),
                new AggCall(AggFunction.COUNT, List.of(5), false, DataType.BIGINT, "flags")),
                Schema.of(new Field("s", DataType.varchar(12)), new Field("g", DataType.INTEGER), new Field("n", DataType.BIGINT),
                        new Field("total", DataType.decimal(18, 2)), new Field("first", DataType.DATE),
                        new Field("top", DataType.DOUBLE), new Field("flags", DataType.BIGINT)));
        assertTrue(decodedOnGpu(assertGpuMatchesCpu(plan, scan, "group by s, g")));
    }

    @Test
    void joinOfTwoDurableTables() {
        ScanNode left = scanAll(facts.snapshot(), List.of());
        ScanNode right = scanAll(dims.snapshot(), List.of());
        List<Field> fields = new ArrayList<>(FACTS.fields());
        fields.addAll(DIMS.fields().stream().map(f -> new Field("d_" + f.name(), f.type())).toList());
        JoinNode join = new JoinNode(left, right, JoinKind.INNER, List.of(1), List.of(0), null, new Schema(fields));
        AggregateNode plan = new AggregateNode(join, List.of(8), List.of(
                new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"),
                new AggCall(AggFunction.SUM, List.of(2), false, DataType.decimal(18, 2), "total")),
                Schema.of(new Field("label", DataType.varchar(12)), new Field("n", DataType.BIGINT),
                        new Field("total", DataType.decimal(18, 2))));
        ExecContext context = assertGpuMatchesCpu(plan, "join facts and dims, grouped by label");
        assertTrue(decodedOnGpu(scanStats(context, left, "facts")), "facts: " + context.stats(left).notes());
        assertTrue(decodedOnGpu(scanStats(context, right, "dims")), "dims: " + context.stats(right).notes());
    }

    @Test
    void deletedRowsGoThroughHostBatches() {
        TableSource before = facts.snapshot();
        List<Long> rowIds = new ArrayList<>();
        LongPredicate doomed = k -> k % 97 == 5;
        try (BatchStream ids = before.scan(List.of(Table.ROW_ID, 0), allocator)) {
            for (Batch b = ids.next(); b != null; b = ids.next()) {
                try (Batch batch = b) {
                    for (int r = 0; r < batch.rowCount(); r++) {
                        if (doomed.test((Long) batch.getObject(1, r))) {
                            rowIds.add((Long) batch.getObject(0, r));
                        }
                    }
                }
            }
        }
        Schema idSchema = Schema.of(Table.ROW_ID_FIELD);
        try (BatchStream ids = Batches.of(idSchema, List.of(batch(idSchema, rowIds.stream().map(id -> List.<Object>of(id)).toList())))) {
            assertEquals(rowIds.size(), facts.delete(before, ids));
        }
        ScanNode scan = scanAll(facts.snapshot(), List.of());
        NodeStats stats = assertGpuMatchesCpu(new ProjectNode(scan, List.of(col(4, DataType.varchar(12)), col(2, DataType.decimal(12, 2))),
                Schema.of(new Field("s", DataType.varchar(12)), new Field("price", DataType.decimal(12, 2)))), scan, "after deletes");
        assertFalse(decodedOnGpu(stats), "notes: " + stats.notes());
        assertTrue(stats.bytesToDevice() > 0);
    }

    @Test
    void inMemoryTablesDecodeOnTheDeviceToo() {
        try (Catalog memory = new Catalog(allocator)) {
            Table memoryFacts = memory.create("facts", FACTS, false);
            Table memoryDims = memory.create("dims", DIMS, false);
            fill(memoryFacts, memoryDims);
            ScanNode scan = scanAll(memoryFacts.snapshot(), List.of());
            AggregateNode plan = new AggregateNode(scan, List.of(4), List.of(
                    new AggCall(AggFunction.SUM, List.of(2), false, DataType.decimal(18, 2), "total")),
                    Schema.of(new Field("s", DataType.varchar(12)), new Field("total", DataType.decimal(18, 2))));
            NodeStats stats = assertGpuMatchesCpu(plan, scan, "in-memory table");
            assertTrue(decodedOnGpu(stats), "notes: " + stats.notes());
            assertTrue(stats.bytesToDevice() > 0);
        }
    }

    /**
     * The device bytes of {@code rows} rows of every fact column from row 4000 on: values, and a
     * validity byte for g, price, s, flag and x (k and d have no NULLs).
     */
    private static long decodedBytes(int rows) {
        long perRow = 8 + 4 + 8 + 4 + 4 + 1 + 8 + 5;
        return perRow * rows;
    }

    private static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f", bytes / 1e6);
    }
}
