package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Plans over a table large enough to run as parallel pipelines give, with four workers, the rows
 * they give on one thread (compared as sorted lists, since a parallel pipeline keeps no order),
 * and every buffer is released, also when a worker fails or the query is cancelled.
 */
class ParallelExecutionTest extends ExecTestBase {
    private static final int ROWS = (int) Pipeline.MIN_PARALLEL_ROWS + 50_000;
    private static final int PARALLEL_GROUPS = 1 << 16;

    /** (id, part, tag, price, weight): part in [0, 1000), tag one of 50 strings or NULL, price DECIMAL(12,2) or NULL. */
    private static TestTable facts() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(row(i, i % 1000, i % 13 == 0 ? null : "t" + (i % 50), i % 17 == 0 ? null : BigDecimal.valueOf(i % 9973, 2),
                    (double) (i % 101)));
        }
        return TestTable.of("facts", "id", INT, "part", INT, "tag", VARCHAR, "price", dec(12, 2), "weight", DOUBLE)
                .batches(rows, 50_000, 0, 50_000, 50_000, 50_000, ROWS - 200_000);
    }

    /** (part, name) for even parts below 1000 only. */
    private static TestTable parts() {
        List<List<Object>> rows = new ArrayList<>();
        for (int p = 0; p < 1000; p += 2) {
            rows.add(row(p, "p" + p));
        }
        return TestTable.of("parts", "part", INT, "name", VARCHAR).batches(rows, rows.size());
    }

    private ExecContext context(int parallelism) {
        ExecContext context = new ExecContext(allocator);
        context.setParallelism(parallelism);
        return context;
    }

    private List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(Object::toString));
        return out;
    }

    /** Runs on one thread and on four; both must give the same rows; returns them. */
    private List<List<Object>> sameOnOneAndFourThreads(PlanNode plan) {
        return sameOnThreads(plan, 4);
    }

    /** Runs on one thread and on each of {@code parallelisms}; all must give the same rows; returns them. */
    private List<List<Object>> sameOnThreads(PlanNode plan, int... parallelisms) {
        List<List<Object>> serial = sorted(run(plan, context(1)));
        for (int parallelism : parallelisms) {
            List<List<Object>> parallel = sorted(run(plan, context(parallelism)));
            assertEquals(serial.size(), parallel.size(), parallelism + " threads");
            assertEquals(serial, parallel, parallelism + " threads");
        }
        return serial;
    }

    private static AggCall agg(AggFunction f, int arg, DataType type) {
        return new AggCall(f, arg < 0 ? List.of() : List.of(arg), false, type, f.name().toLowerCase());
    }

    private static AggregateNode aggregate(PlanNode input, List<Integer> keys, AggCall... calls) {
        List<Field> fields = new ArrayList<>();
        keys.forEach(k -> fields.add(input.schema().field(k)));
        for (AggCall c : calls) {
            fields.add(new Field(c.name(), c.type()));
        }
        return new AggregateNode(input, keys, List.of(calls), new Schema(fields));
    }

    private static JoinNode join(PlanNode left, PlanNode right, JoinKind kind) {
        Schema schema = kind.outputsRight() ? left.schema().concat(right.schema()) : left.schema();
        return new JoinNode(left, right, kind, List.of(1), List.of(0), null, schema);
    }

    @Test
    void filterAndProjectGiveTheSerialRows() {
        Expr cheap = call(Op.LT, BOOL, col(3, dec(12, 2)), dec("10.00"));
        List<List<Object>> rows = sameOnOneAndFourThreads(
                project(new FilterNode(scan(facts()), cheap), col(0, INT), call(Op.CONCAT, VARCHAR, col(2, VARCHAR), str("!"))));
        long expected = 0;
        for (int i = 0; i < ROWS; i++) {
            expected += i % 17 != 0 && i % 9973 < 1000 ? 1 : 0;
        }
        assertEquals(expected, rows.size());
    }

    @Test
    void groupedAggregatesMergeAcrossWorkers() {
        AggregateNode byTag = aggregate(scan(facts()), List.of(2), agg(AggFunction.COUNT_STAR, -1, BIGINT),
                agg(AggFunction.SUM, 3, dec(18, 2)), agg(AggFunction.AVG, 3, dec(18, 6)), agg(AggFunction.MIN, 0, INT),
                agg(AggFunction.MAX, 2, VARCHAR), agg(AggFunction.SUM, 4, DOUBLE), agg(AggFunction.COUNT, 3, BIGINT));
        List<List<Object>> rows = sameOnOneAndFourThreads(byTag);
        assertEquals(51, rows.size()); // 50 tags and NULL
        List<Object> nullTag = rows.stream().filter(r -> r.get(0) == null).findFirst().orElseThrow();
        long nullTagRows = (ROWS + 12) / 13;
        assertEquals(nullTagRows, nullTag.get(1));
        assertEquals(0, nullTag.get(4)); // id 0 has a NULL tag
        assertEquals(null, nullTag.get(5));
    }

    /**
     * Tens of thousands of groups, each seen by several workers: the partials merge in parallel,
     * one hash partition per worker, and still give every group exactly once. The workers run
     * the projection and its filter below the aggregate themselves.
     */
    @Test
    void groupsEveryWorkerSeesMergeByHashPartition() {
        int groups = PARALLEL_GROUPS + 7;
        Expr cheap = call(Op.LT, BOOL, col(3, dec(12, 2)), dec("50.00"));
        AggregateNode byResidue = aggregate(project(new FilterNode(scan(facts()), cheap), call(Op.MOD, INT, col(0, INT), lit(groups)),
                col(3, dec(12, 2))), List.of(0), agg(AggFunction.COUNT_STAR, -1, BIGINT), agg(AggFunction.SUM, 1, dec(18, 2)));
        List<List<Object>> rows = sameOnOneAndFourThreads(byResidue);
        long passing = 0;
        for (int i = 0; i < ROWS; i++) {
            passing += i % 17 != 0 && i % 9973 < 5000 ? 1 : 0;
        }
        assertEquals(passing, rows.stream().mapToLong(r -> (long) r.get(1)).sum());
        assertTrue(rows.size() > PARALLEL_GROUPS / 2, "enough groups to merge in parallel: " + rows.size());
    }

    /**
     * Groups of three consecutive ids, as in a table clustered by the group key: the workers'
     * morsels hold different groups but for those a batch boundary cuts, which merge into the
     * earlier partial while the others stay in theirs; every group comes out once, whole.
     */
    @Test
    void clusteredGroupsMergeOnlyWhereWorkersShareThem() {
        AggregateNode byThree = aggregate(project(scan(facts()), call(Op.DIVIDE, INT, col(0, INT), lit(3)), col(3, dec(12, 2))),
                List.of(0), agg(AggFunction.COUNT_STAR, -1, BIGINT), agg(AggFunction.SUM, 1, dec(18, 2)));
        // Two workers merge the groups they share into the earlier partial; more merge by hash partition.
        List<List<Object>> rows = sameOnThreads(byThree, 2, 4);
        assertEquals((ROWS + 2) / 3, rows.size());
        int last = (ROWS - 1) / 3;
        assertTrue(rows.stream().allMatch(r -> (long) r.get(1) == ((int) r.get(0) == last ? ROWS - 3L * last : 3)));
    }

    /**
     * Batches sorted by the key whose ranges overlap (the table twice over, each half in key
     * order): a key lies inside two batches, not at their ends, so the partials merge by hash
     * partition; as when one batch is out of order or a key is NULL.
     */
    @Test
    void sortedBatchesWhoseRangesOverlapMergeByHashPartition() {
        int half = ROWS / 2;
        AggCall count = agg(AggFunction.COUNT_STAR, -1, BIGINT);
        AggregateNode twice = aggregate(project(scan(facts()), call(Op.MOD, INT, col(0, INT), lit(half))), List.of(0), count);
        List<List<Object>> rows = sameOnThreads(twice, 2, 4, 16);
        assertEquals(half, rows.size());
        assertEquals(ROWS, rows.stream().mapToLong(r -> (long) r.get(1)).sum());
        // Keys ascending but for one row, and ascending with NULLs in every 13th row: neither is clustered.
        AggregateNode oneOutOfOrder = aggregate(project(scan(facts()), call(Op.CASE, INT, call(Op.EQ, BOOL, col(0, INT),
                lit(ROWS - 10)), lit(5), call(Op.DIVIDE, INT, col(0, INT), lit(2)))), List.of(0), count);
        assertEquals(ROWS, sameOnThreads(oneOutOfOrder, 2, 4).stream().mapToLong(r -> (long) r.get(1)).sum());
        AggregateNode withNulls = aggregate(project(scan(facts()), call(Op.CASE, INT, call(Op.EQ, BOOL, call(Op.MOD, INT,
                col(0, INT), lit(13)), lit(0)), nul(INT), call(Op.DIVIDE, INT, col(0, INT), lit(2)))), List.of(0), count);
        List<List<Object>> nullGroups = sameOnThreads(withNulls, 2, 4);
        assertEquals((long) (ROWS + 12) / 13, nullGroups.stream().filter(r -> r.get(0) == null).findFirst().orElseThrow().get(1));
    }

    /**
     * Hundreds of thousands of groups, most seen by one worker only: every group still comes out
     * exactly once.
     */
    @Test
    void manyGroupsMergeAcrossWorkers() {
        AggregateNode byId = aggregate(scan(facts()), List.of(0), agg(AggFunction.COUNT_STAR, -1, BIGINT),
                agg(AggFunction.SUM, 3, dec(18, 2)), agg(AggFunction.MAX, 2, VARCHAR), agg(AggFunction.MIN, 4, DOUBLE));
        List<List<Object>> rows = sameOnOneAndFourThreads(byId);
        assertEquals(ROWS, rows.size());
        assertTrue(rows.stream().allMatch(r -> (long) r.get(1) == 1));
        // Two keys, one of them NULL in every 13th row: (id / 2, tag) groups of one or two rows.
        AggregateNode byPair = aggregate(project(scan(facts()), call(Op.DIVIDE, INT, col(0, INT), lit(2)), col(2, VARCHAR),
                col(3, dec(12, 2))), List.of(0, 1), agg(AggFunction.COUNT_STAR, -1, BIGINT), agg(AggFunction.SUM, 2, dec(18, 2)));
        List<List<Object>> pairs = sameOnOneAndFourThreads(byPair);
        assertEquals(ROWS, pairs.stream().mapToLong(r -> (long) r.get(2)).sum());
        assertTrue(pairs.size() > PARALLEL_GROUPS, "enough groups to merge in parallel: " + pairs.size());
    }

    /**
     * More hash partitions (workers) than some have groups: a filter keeping no row, one row,
     * one heavy group with a few light ones (skew), and many groups with NULL keys among them.
     */
    @Test
    void manyPartitionsMergeEmptyOneRowAndSkewedInputs() {
        Expr none = call(Op.LT, BOOL, col(0, INT), lit(0));
        Expr one = call(Op.EQ, BOOL, col(0, INT), lit(12_345));
        AggCall count = agg(AggFunction.COUNT_STAR, -1, BIGINT);
        AggCall sum = agg(AggFunction.SUM, 3, dec(18, 2));
        assertEquals(List.of(), sameOnThreads(aggregate(new FilterNode(scan(facts()), none), List.of(1), count, sum), 2, 16));
        assertEquals(List.of(row(345, 1L, BigDecimal.valueOf(2372, 2))),
                sameOnThreads(aggregate(new FilterNode(scan(facts()), one), List.of(1), count, sum), 2, 16));
        // id < 1000 are groups of one row each; all others fall into the group 1000.
        AggregateNode skewed = aggregate(project(scan(facts()), call(Op.CASE, INT, call(Op.LT, BOOL, col(0, INT), lit(1000)),
                col(0, INT), lit(1000)), col(3, dec(12, 2))), List.of(0), count, agg(AggFunction.SUM, 1, dec(18, 2)));
        List<List<Object>> groups = sameOnThreads(skewed, 2, 16);
        assertEquals(1001, groups.size());
        assertEquals(ROWS - 1000L, groups.stream().filter(r -> (int) r.get(0) == 1000).findFirst().orElseThrow().get(1));
        // (id / 3, tag): NULL tags in every 13th row, groups of one to three rows, above the parallel merge's threshold.
        AggregateNode byPair = aggregate(project(scan(facts()), call(Op.DIVIDE, INT, col(0, INT), lit(3)), col(2, VARCHAR)),
                List.of(0, 1), count);
        List<List<Object>> pairs = sameOnThreads(byPair, 2, 16);
        assertEquals(ROWS, pairs.stream().mapToLong(r -> (long) r.get(2)).sum());
        assertTrue(pairs.stream().anyMatch(r -> r.get(1) == null));
    }

    /**
     * String group keys from a join's build side all come in its one dictionary, whose codes
     * the workers group by as they are; the probe's own strings (one dictionary per batch) and
     * derived strings that may repeat in their dictionary (SUBSTRING) group by value.
     */
    @Test
    void stringKeysGroupByValueWhateverDictionaryTheyComeIn() {
        JoinNode joined = join(scan(facts()), scan(parts()), JoinKind.INNER);
        AggregateNode byName = aggregate(joined, List.of(6), agg(AggFunction.COUNT_STAR, -1, BIGINT));
        List<List<Object>> names = sameOnThreads(byName, 2, 4);
        assertEquals(500, names.size());
        assertEquals(ROWS / 2, names.stream().mapToLong(r -> (long) r.get(1)).sum());
        AggregateNode byNameAndTag = aggregate(joined, List.of(6, 2), agg(AggFunction.COUNT_STAR, -1, BIGINT));
        assertEquals(ROWS / 2, sameOnThreads(byNameAndTag, 2, 4).stream().mapToLong(r -> (long) r.get(2)).sum());
        // MIN and MAX of the build's strings (one dictionary): the part's name, as codes of that dictionary.
        AggregateNode namesByPart = aggregate(joined, List.of(1), agg(AggFunction.MIN, 6, VARCHAR), agg(AggFunction.MAX, 6, VARCHAR),
                agg(AggFunction.MAX, 2, VARCHAR));
        List<List<Object>> named = sameOnThreads(namesByPart, 2, 4);
        assertEquals(500, named.size());
        assertTrue(named.stream().allMatch(r -> r.get(1).equals("p" + r.get(0)) && r.get(2).equals(r.get(1))), named.get(0).toString());
        AggregateNode byInitial = aggregate(project(scan(facts()), call(Op.SUBSTRING, VARCHAR, col(2, VARCHAR), lit(1), lit(1))),
                List.of(0), agg(AggFunction.COUNT_STAR, -1, BIGINT));
        assertEquals(List.of(Arrays.asList(null, (long) (ROWS + 12) / 13), row("t", (long) ROWS - (ROWS + 12) / 13)),
                sameOnThreads(byInitial, 2, 4));
    }

    @Test
    void ungroupedAggregateOverTheWholeTable() {
        List<List<Object>> rows = sameOnOneAndFourThreads(aggregate(scan(facts()), List.of(),
                agg(AggFunction.COUNT_STAR, -1, BIGINT), agg(AggFunction.MAX, 0, INT)));
        assertEquals(List.of(row((long) ROWS, ROWS - 1)), rows);
    }

    @Test
    void joinsProbeOneSharedBuildFromEveryWorker() {
        for (JoinKind kind : JoinKind.values()) {
            List<List<Object>> rows = sameOnOneAndFourThreads(join(scan(facts()), scan(parts()), kind));
            // Every part of parts occurs in facts, so RIGHT adds no row to INNER's, and FULL none to LEFT's.
            int expected = kind == JoinKind.LEFT || kind == JoinKind.FULL ? ROWS : ROWS / 2;
            assertEquals(expected, rows.size(), kind.toString());
        }
    }

    /**
     * A join over a filter and a projection of columns runs both itself on the scanned batches
     * (HashJoinOperator): every kind, with and without a residual on the projected columns, gives
     * the one-thread rows, and the rows the filter drops join nothing, not even in LEFT or ANTI.
     */
    @Test
    void joinsOverAFilterAndAProjectionOfColumnsGiveTheSerialRows() {
        Expr cheap = call(Op.LT, BOOL, col(3, dec(12, 2)), dec("10.00"));
        PlanNode projected = project(new FilterNode(scan(facts()), cheap), col(2, VARCHAR), col(1, INT), col(0, INT));
        long passing = 0;
        long passingEven = 0;
        for (int i = 0; i < ROWS; i++) {
            boolean passes = i % 17 != 0 && i % 9973 < 1000;
            passing += passes ? 1 : 0;
            passingEven += passes && i % 2 == 0 ? 1 : 0;
        }
        for (JoinKind kind : JoinKind.values()) {
            List<List<Object>> rows = sameOnOneAndFourThreads(join(projected, scan(parts()), kind));
            long expected = switch (kind) {
                case INNER, SEMI, RIGHT -> passingEven; // every even part has a passing row
                case LEFT, FULL -> passing;
                case ANTI -> passing - passingEven;
            };
            assertEquals(expected, rows.size(), kind.toString());
            Schema schema = kind.outputsRight() ? projected.schema().concat(parts().schema()) : projected.schema();
            Expr idAbove = call(Op.GT, BOOL, col(2, INT), lit(ROWS / 2));
            sameOnOneAndFourThreads(new JoinNode(projected, scan(parts()), kind, List.of(1), List.of(0), idAbove, schema));
        }
    }

    /**
     * A build side above {@link PartitionedJoinKeys#MIN_PARTITIONED_ROWS} rows is indexed by hash
     * partition on every worker: every join kind gives the rows of a one-thread build.
     */
    @Test
    void largeBuildsArePartitionedAcrossWorkers() {
        // Right: (k = id / 2, tag): every key twice; left ids above ROWS / 2 find none, and NULL tags join nothing.
        PlanNode right = project(scan(facts()), call(Op.DIVIDE, INT, col(0, INT), lit(2)), col(2, VARCHAR));
        PlanNode left = project(scan(facts()), col(0, INT), col(2, VARCHAR));
        assertTrue(ROWS > PartitionedJoinKeys.MIN_PARTITIONED_ROWS);
        for (JoinKind kind : JoinKind.values()) {
            Schema schema = kind.outputsRight() ? left.schema().concat(right.schema()) : left.schema();
            JoinNode byId = new JoinNode(left, right, kind, List.of(0), List.of(0), null, schema);
            List<List<Object>> rows = sameOnOneAndFourThreads(byId);
            int matchedLeft = (ROWS + 1) / 2;
            int expected = switch (kind) {
                case INNER -> 2 * matchedLeft;
                case LEFT, FULL -> 2 * matchedLeft + (ROWS - matchedLeft);
                case RIGHT -> ROWS;
                case SEMI -> matchedLeft;
                case ANTI -> ROWS - matchedLeft;
            };
            assertEquals(expected, rows.size(), kind.toString());
            // Two-column keys (id, tag) against (id / 2, tag): matches only where both agree, NULL tags never.
            JoinNode byPair = new JoinNode(left, right, kind, List.of(0, 1), List.of(0, 1), null, schema);
            sameOnOneAndFourThreads(byPair);
        }
    }

    /**
     * SEMI and ANTI joins that index their small left input and stream the large right one past
     * it give the rows of the usual right-side build, on one worker and on four: with and without
     * a residual, on a key with NULLs (which match nothing) and on one where the left has
     * duplicates, and in the left's order.
     */
    @Test
    void semiAndAntiJoinsBuildingOnTheLeftGiveTheRightBuildsRows() {
        // Left: (k, tag) with k = i % 700 (parts 700 and up exist nowhere in facts) and tags with NULLs and duplicates.
        List<List<Object>> leftRows = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            leftRows.add(row(i % 1600, i % 7 == 0 ? null : "t" + (i % 60)));
        }
        PlanNode left = scan(TestTable.of("small", "k", INT, "tag", VARCHAR).batches(leftRows, 600, 0, 900));
        PlanNode right = scan(facts());
        Expr heavy = call(Op.GT, BOOL, col(2 + 4, DOUBLE), dbl(90));
        // Conditions across both sides: another tag on the same part, a larger part with the same tag.
        Expr otherTag = call(Op.NE, BOOL, col(1, VARCHAR), col(2 + 2, VARCHAR));
        Expr largerPart = call(Op.LT, BOOL, col(0, INT), col(2 + 1, INT));
        for (JoinKind kind : List.of(JoinKind.SEMI, JoinKind.ANTI)) {
            for (List<Integer> keys : List.of(List.of(0, 1), List.of(1, 2))) {
                for (Expr residual : new Expr[] {null, heavy, keys.get(0) == 0 ? otherTag : largerPart}) {
                    JoinNode rightBuild = new JoinNode(left, right, kind, List.of(keys.get(0)), List.of(keys.get(1)), residual,
                            left.schema());
                    JoinNode leftBuild = new JoinNode(left, right, kind, List.of(keys.get(0)), List.of(keys.get(1)), residual,
                            left.schema(), true);
                    List<List<Object>> expected = run(rightBuild, context(1));
                    String label = kind + " on " + keys + " where " + residual;
                    assertEquals(expected, run(leftBuild, context(1)), label);
                    assertEquals(expected, run(leftBuild, context(4)), label);
                    assertTrue(expected.size() > 0 && expected.size() < leftRows.size(), label + ": " + expected.size());
                }
            }
        }
    }

    /** Sorts on four workers give exactly the one-thread order: ties keep their input order (the sort is stable). */
    @Test
    void sortsOnWorkersKeepTheOneThreadOrder() {
        PlanNode facts = scan(facts());
        List<List<SortKey>> orders = List.of(
                List.of(new SortKey(1, false, false)), // 1000 distinct parts: many ties
                List.of(new SortKey(2, true, true), new SortKey(3, false, false)), // strings with NULLs first, then decimals with NULLs
                List.of(new SortKey(4, true, false), new SortKey(0, true, false)));
        for (List<SortKey> keys : orders) {
            for (long[] offsetLimit : new long[][] {{0, -1}, {0, 10}, {12_345, 1000}, {0, ROWS + 5L}, {0, 0}}) {
                SortNode sort = new SortNode(facts, keys, offsetLimit[0], offsetLimit[1]);
                List<List<Object>> serial = run(sort, context(1));
                assertEquals(serial, run(sort, context(4)), keys + " offset " + offsetLimit[0] + " limit " + offsetLimit[1]);
                long expected = offsetLimit[1] < 0 ? ROWS : Math.min(offsetLimit[1], ROWS - offsetLimit[0]);
                assertEquals(expected, serial.size());
            }
        }
    }

    @Test
    void aggregateOverJoinInOnePipeline() {
        PlanNode joined = join(scan(facts()), scan(parts()), JoinKind.INNER);
        List<List<Object>> rows = sameOnOneAndFourThreads(aggregate(joined, List.of(6), agg(AggFunction.COUNT_STAR, -1, BIGINT)));
        assertEquals(500, rows.size());
        assertTrue(rows.stream().allMatch(r -> (long) r.get(1) == ROWS / 1000));
    }

    /** Ids {0, step, 2 * step, ...} below {@code below}, as a one-column table. */
    private static TestTable ids(int step, int below) {
        List<List<Object>> rows = new ArrayList<>();
        for (int id = 0; id < below; id += step) {
            rows.add(row(id));
        }
        return TestTable.of("ids", "id", INT).batches(rows, rows.size());
    }

    /**
     * The builds of the inner and semi joins of a pipeline filter the scanned rows by key before
     * the first join (JoinKeyFilter): the rows are those of one thread, which filters
     * nothing early, whether the key reaches the join through a projection, lies under a LEFT
     * join (which filters nothing), or comes from a computed expression (not filterable); a
     * filter that keeps every row turns itself off.
     */
    @Test
    void joinBuildsFilterTheScannedRowsByKey() {
        PlanNode withParts = join(scan(facts()), scan(parts()), JoinKind.INNER);
        PlanNode projected = project(withParts, col(1, INT), col(0, INT), col(6, VARCHAR));
        // Ids divisible by 7 below 100 000 that have an even part: i % 14 == 0.
        PlanNode byId = new JoinNode(projected, scan(ids(7, 100_000)), JoinKind.SEMI, List.of(1), List.of(0), null,
                projected.schema());
        assertEquals((100_000 + 13) / 14, sameOnOneAndFourThreads(byId).size());

        PlanNode leftParts = join(scan(facts()), scan(parts()), JoinKind.LEFT);
        PlanNode innerIds = new JoinNode(leftParts, scan(ids(7, 100_000)), JoinKind.INNER, List.of(0), List.of(0), null,
                leftParts.schema().concat(scan(ids(7, 100_000)).schema()));
        assertEquals((100_000 + 6) / 7, sameOnOneAndFourThreads(innerIds).size());

        PlanNode halved = project(scan(facts()), call(Op.DIVIDE, INT, col(0, INT), lit(2)), col(1, INT));
        PlanNode computedKey = new JoinNode(halved, scan(ids(1, 1000)), JoinKind.SEMI, List.of(0), List.of(0), null, halved.schema());
        assertEquals(2000, sameOnOneAndFourThreads(computedKey).size());

        PlanNode everyPart = new JoinNode(scan(facts()), scan(ids(1, 1000)), JoinKind.SEMI, List.of(1), List.of(0), null,
                facts().schema());
        assertEquals(ROWS, sameOnOneAndFourThreads(everyPart).size());
    }

    @Test
    void aWorkersErrorReachesTheConsumerWithItsSqlState() {
        // id / (part - 999) divides by zero on every thousandth row.
        Expr ratio = call(Op.DIVIDE, INT, col(0, INT), call(Op.SUBTRACT, INT, col(1, INT), lit(999)));
        WarpException e = assertThrows(WarpException.class, () -> run(project(scan(facts()), ratio), context(4)));
        assertEquals(SqlState.DIVISION_BY_ZERO, e.state());
    }

    @Test
    void aCancelledQueryStopsEveryWorker() {
        ExecContext context = context(4);
        context.cancel();
        WarpException e = assertThrows(WarpException.class,
                () -> run(aggregate(scan(facts()), List.of(1), agg(AggFunction.COUNT_STAR, -1, BIGINT)), context));
        assertEquals(SqlState.QUERY_CANCELED, e.state());
    }
}
