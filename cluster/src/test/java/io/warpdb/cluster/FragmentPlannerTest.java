package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.cluster.FragmentPlanner.Output;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.sql.Database;
import io.warpdb.sql.PinnedStatistics;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which subtrees of a query's plan the shards run, by the tables' distributions. */
class FragmentPlannerTest {
    private static Database database;
    private static Session session;
    private static final ClusterCatalog CATALOG = new ClusterCatalog(List.of());

    @BeforeAll
    static void tables() {
        database = Database.inMemory("fragments");
        session = database.newLocalSession();
        create("orders", "o_id BIGINT, o_cust INT, o_total DECIMAL(12,2)", "hash(o_id)");
        create("lines", "l_order BIGINT, l_qty INT, l_cust INT", "hash(l_order)");
        create("narrow", "n_order INT, n_v INT", "hash(n_order)");
        create("cust", "c_id INT, c_name VARCHAR(10)", "replicated");
        create("events", "e_id BIGINT, e_cust INT", "hash(e_id)");
        create("wide", "w_id INT, w_a VARCHAR(200), w_b VARCHAR(200), w_c VARCHAR(200)", "hash(w_id)");
        create("clicks", "k_id BIGINT, k_day DATE, k_tag INT, k_price DECIMAL(12,2)", "hash(k_id)");
        create("tags", "t_id INT, t_name VARCHAR(20)", "hash(t_id)");
        create("scores", "s_tag INT, s_score INT", "hash(s_tag)");
        create("buyers", "b_id INT, b_name VARCHAR(40), b_region INT", "hash(b_id)");
        create("regions", "r_id INT, r_name VARCHAR(10)", "replicated");
        create("deals", "d_id BIGINT, d_buyer INT", "hash(d_id)");
        create("sales", "s_deal BIGINT, s_qty INT", "hash(s_deal)");
    }

    private static void create(String table, String columns, String distribution) {
        session.execute("CREATE TABLE " + table + " (" + columns + ")", List.of()).close();
        session.execute("INSERT INTO " + table + " SELECT * FROM (VALUES " + switch (table) {
            case "cust" -> "(1, 'a'), (2, 'b')";
            case "orders" -> "(CAST(1 AS BIGINT), 1, 2.50), (CAST(2 AS BIGINT), 2, 3.50)";
            case "lines" -> "(CAST(1 AS BIGINT), 5, 1), (CAST(2 AS BIGINT), 7, 2)";
            case "wide" -> java.util.stream.IntStream.range(0, 20).mapToObj(i -> "(" + i + ", 'a', 'b', 'c')")
                    .collect(java.util.stream.Collectors.joining(", "));
            // 200 days of clicks, one a day, on 20 tags
            case "clicks" -> java.util.stream.IntStream.range(0, 200).mapToObj(i -> "(CAST(" + i + " AS BIGINT), DATE '2024-01-01' + "
                    + i + ", " + i % 20 + ", 1.50)").collect(java.util.stream.Collectors.joining(", "));
            case "tags" -> java.util.stream.IntStream.range(0, 20).mapToObj(i -> "(" + i + ", 'tag " + i + "')")
                    .collect(java.util.stream.Collectors.joining(", "));
            case "scores" -> java.util.stream.IntStream.range(0, 20).mapToObj(i -> "(" + i + ", " + 10 * i + ")")
                    .collect(java.util.stream.Collectors.joining(", "));
            // 300 buyers with long names in 5 regions, 100 deals of theirs, 3000 sales of which 100 are of those deals
            case "deals" -> java.util.stream.IntStream.range(0, 100).mapToObj(i -> "(CAST(" + i + " AS BIGINT), " + i * 3 + ")")
                    .collect(java.util.stream.Collectors.joining(", "));
            case "sales" -> java.util.stream.IntStream.range(0, 3000).mapToObj(i -> "(CAST(" + i + " AS BIGINT), " + i % 7 + ")")
                    .collect(java.util.stream.Collectors.joining(", "));
            case "buyers" -> java.util.stream.IntStream.range(0, 300).mapToObj(i -> "(" + i + ", 'buyer number " + i
                    + " of the test', " + i % 5 + ")").collect(java.util.stream.Collectors.joining(", "));
            case "regions" -> java.util.stream.IntStream.range(0, 5).mapToObj(i -> "(" + i + ", 'region " + i + "')")
                    .collect(java.util.stream.Collectors.joining(", "));
            case "events" -> java.util.stream.IntStream.range(0, 60).mapToObj(i -> "(CAST(" + i + " AS BIGINT), " + i % 7 + ")")
                    .collect(java.util.stream.Collectors.joining(", "));
            default -> "(1, 1), (2, 2)";
        } + ")", List.of()).close();
        CATALOG.apply(ClusterCommand.create(table, "", distribution));
    }

    @AfterAll
    static void close() {
        session.close();
        database.close();
    }

    private static List<FragmentPlanner.Fragment> fragments(String sql) {
        PlanNode plan = QueryPlans.of(session, sql, List.of()).orElseThrow().plan();
        return FragmentPlanner.fragments(plan, CATALOG, 3);
    }

    @Test
    void groupingByAnotherColumnAggregatesPartiallyOnTheShards() {
        List<FragmentPlanner.Fragment> fragments =
                fragments("SELECT o_cust, SUM(o_total), COUNT(*), MIN(o_id) FROM orders GROUP BY o_cust");
        assertEquals(1, fragments.size());
        assertTrue(fragments.get(0).partial());
        assertTrue(fragments.get(0).plan() instanceof AggregateNode);
    }

    @Test
    void groupingByTheDistributionColumnAggregatesWhollyOnTheShards() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT o_id, AVG(o_total), COUNT(DISTINCT o_cust) FROM orders GROUP BY o_id");
        assertEquals(1, fragments.size());
        assertTrue(!fragments.get(0).partial() && contains(fragments.get(0).plan(), AggregateNode.class), fragments.toString());
    }

    @Test
    void anAverageSplitsIntoASumAndACountOnTheShards() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT AVG(o_total), COUNT(*), AVG(o_cust) FROM orders");
        assertEquals(List.of(Output.MERGE), outputs(fragments));
        AggregateNode half = FragmentPlanner.shardHalf((AggregateNode) fragments.get(0).plan());
        assertEquals("[SUM([$1]), COUNT_STAR([]), SUM([$0]), COUNT([$1]), COUNT([$0])]", half.aggregates().toString());
        assertEquals("DECIMAL(38,2)", half.schema().type(0).sqlName());
    }

    @Test
    void aDistinctCountGroupedByAnotherColumnRepartitionsByTheGroupKeys() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT o_cust, COUNT(DISTINCT o_total) FROM orders GROUP BY o_cust");
        assertEquals(List.of(Output.REPARTITION, Output.GATHER), outputs(fragments));
        assertTrue(fragments.get(1).plan() instanceof AggregateNode);
        // without groups: the rows go to the coordinator
        assertEquals(List.of(Output.GATHER), outputs(fragments("SELECT COUNT(DISTINCT o_cust) FROM orders")));
    }

    @Test
    void joinsOnBothDistributionColumnsStayOnTheShards() {
        List<FragmentPlanner.Fragment> fragments = fragments(
                "SELECT c_name, SUM(l_qty) FROM orders JOIN lines ON o_id = l_order JOIN cust ON o_cust = c_id GROUP BY c_name");
        assertEquals(1, fragments.size());
        assertTrue(fragments.get(0).partial() && contains(fragments.get(0).plan(), JoinNode.class));
    }

    @Test
    void joinsOnOtherColumnsRepartitionBothSidesAndStayOnTheShards() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT COUNT(*) FROM orders JOIN lines ON o_cust = l_cust");
        assertEquals(List.of(Output.REPARTITION, Output.REPARTITION, Output.MERGE), outputs(fragments));
        FragmentPlanner.Fragment join = fragments.get(2);
        assertEquals(2, join.inputs().size());
        for (FragmentPlanner.Input input : join.inputs()) {
            PlanNode side = FragmentPlanner.at(join.plan(), input.path());
            assertTrue(side == fragments.get(input.fragment()).plan(), side.describe());
            assertTrue(FragmentPlanner.at(join.plan(), input.path().subList(0, input.path().size() - 1)) instanceof JoinNode);
        }
        // INT against BIGINT hashes alike: not co-located (types differ), but the right side moves to where the left lies
        assertEquals(List.of(Output.REPARTITION, Output.MERGE), outputs(fragments("SELECT COUNT(*) FROM narrow JOIN lines ON n_order = l_order")));
    }

    /**
     * A side that lies hashed by one of the join's keys stays where it is; only the other side is
     * hashed, by the paired key, to it (a key of several too), instead of both sides moving.
     */
    @Test
    void aSideAlreadyHashedByAJoinKeyStaysAndOnlyTheOtherMoves() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT COUNT(*) FROM orders JOIN lines ON o_id = l_cust");
        assertEquals(List.of(Output.REPARTITION, Output.MERGE), outputs(fragments));
        assertEquals("l_cust", movedKey(fragments.get(0)), "lines moves, hashed by l_cust (as BIGINT)");
        // two key pairs: the moved side is hashed by the one paired with the other side's distribution column
        List<FragmentPlanner.Fragment> twoKeys = fragments("SELECT COUNT(*) FROM orders JOIN lines ON o_cust = l_cust AND o_id = l_qty");
        assertEquals(List.of(Output.REPARTITION, Output.MERGE), outputs(twoKeys));
        assertEquals("l_qty", movedKey(twoKeys.get(0)));
    }

    /**
     * After an inner join of the two distribution columns, the rows lie hashed by either key (a
     * matched row's are equal): grouping by the right side's key, the aggregate runs whole on the
     * shards, and a later join on it is co-located.
     */
    @Test
    void anInnerJoinsRowsLieHashedByEitherOfItsKeys() {
        List<FragmentPlanner.Fragment> grouped = fragments("SELECT o_id, SUM(l_qty) FROM lines JOIN orders ON l_order = o_id GROUP BY o_id");
        assertEquals(List.of(Output.GATHER), outputs(grouped));
        assertTrue(contains(grouped.get(0).plan(), AggregateNode.class), grouped.get(0).plan().describe());
        List<FragmentPlanner.Fragment> joined = fragments("SELECT COUNT(*) FROM events JOIN"
                + " (SELECT o_id, l_qty FROM lines JOIN orders ON l_order = o_id) j ON e_id = j.o_id");
        assertEquals(List.of(Output.MERGE), outputs(joined), "co-located on o_id, which equals the l_order the rows lie by");
    }

    /**
     * Under a sort with a limit, a gathered fragment sends only each shard's first offset + limit
     * rows in the sort's order (the shard runs the sort over its rows); the coordinator's sort
     * then skips and keeps as asked. Not under a merged aggregate, whose groups are whole only
     * once merged.
     */
    @Test
    void aSortWithALimitKeepsEachShardsFirstRows() {
        String sql = "SELECT o_id, o_total FROM orders ORDER BY o_total DESC, o_id LIMIT 3 OFFSET 2";
        PlanNode plan = QueryPlans.of(session, sql, List.of()).orElseThrow().plan();
        List<FragmentPlanner.Fragment> fragments = FragmentPlanner.fragments(plan, CATALOG, 3);
        assertEquals(List.of(Output.GATHER), outputs(fragments));
        assertTrue(fragments.get(0).topN());
        SortNode shards = FragmentPlanner.shardTopN(plan, fragments.get(0).plan(), fragments.get(0).plan());
        assertEquals(0, shards.offset());
        assertEquals(5, shards.limit(), "offset + limit");
        assertEquals(2, shards.keys().size());
        List<FragmentPlanner.Fragment> merged = fragments("SELECT o_cust, SUM(o_total) FROM orders GROUP BY o_cust ORDER BY 2 DESC LIMIT 1");
        assertEquals(List.of(Output.MERGE), outputs(merged));
        assertTrue(!merged.get(0).topN());
    }

    /**
     * A scalar subquery's aggregate that a join on the shards reads (TPC-H q22's shape): every
     * shard's partial groups go to every shard, which merges them, so the join stays on the shards
     * instead of gathering the other side; the shard reading them replaces the aggregate by their merge.
     */
    @Test
    void aScalarAggregateAJoinReadsIsMergedOnEveryShard() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT COUNT(*), SUM(l_qty) FROM lines WHERE l_qty > (SELECT AVG(l_qty) FROM lines)");
        assertEquals(List.of(Output.MERGE_EVERYWHERE, Output.MERGE), outputs(fragments));
        assertTrue(fragments.get(0).partial() && !fragments.get(0).gathered());
        FragmentPlanner.Input input = fragments.get(1).inputs().get(0);
        assertTrue(input.partial() && input.fragment() == 0, input.toString());
        PlanNode read = FragmentPlanner.at(fragments.get(1).plan(), input.path());
        assertTrue(read instanceof AggregateNode aggregate && aggregate.groupKeys().isEmpty(), read.describe());
    }

    /**
     * The way a join's rows meet is the one that sends the fewest bytes between the nodes, not rows:
     * 20 wide rows a shard cost more to send to every node than 60 narrow ones to hash to where the
     * wide side lies (by rows alone, the wide side would be broadcast).
     */
    @Test
    void theWayThatSendsFewerBytesWinsNotFewerRows() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT e_id, w_a, w_b, w_c FROM events JOIN wide ON e_cust = w_id");
        assertEquals(List.of(Output.REPARTITION, Output.GATHER), outputs(fragments));
        assertEquals("e_cust", movedKey(fragments.get(0)), "the narrow events move to where wide lies");
    }

    /** The column a repartitioned fragment's rows are hashed by, as the scan below names it (a cast of it is named after it). */
    private static String movedKey(FragmentPlanner.Fragment fragment) {
        assertEquals(1, fragment.keys().size(), fragment.keys().toString());
        return fragment.plan().schema().field(fragment.keys().get(0)).name().replaceAll("\\d+$", "");
    }

    @Test
    void everyEqualityJoinKindRepartitionsAndAnAggregateAboveStaysOnTheShards() {
        for (String kind : List.of("JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN")) {
            assertEquals(List.of(Output.REPARTITION, Output.REPARTITION, Output.GATHER),
                    outputs(fragments("SELECT o_cust, l_qty FROM orders " + kind + " lines ON o_cust = l_cust")), kind);
        }
        for (String kind : List.of("EXISTS", "NOT EXISTS")) {
            assertEquals(List.of(Output.REPARTITION, Output.REPARTITION, Output.GATHER),
                    outputs(fragments("SELECT o_cust FROM orders WHERE " + kind + " (SELECT 1 FROM lines WHERE l_cust = o_cust)")), kind);
        }
        // grouped by the repartitioned key: the whole aggregate runs on the shards
        List<FragmentPlanner.Fragment> grouped = fragments("SELECT o_cust, SUM(l_qty) FROM orders JOIN lines ON o_cust = l_cust GROUP BY o_cust");
        assertEquals(List.of(Output.REPARTITION, Output.REPARTITION, Output.GATHER), outputs(grouped));
        assertTrue(contains(grouped.get(2).plan(), AggregateNode.class));
    }

    /**
     * TPC-H q14's shape: a month of the large side is fewer bytes than the whole small side sent
     * to every node, which a filter taken as halving its input would not tell (the small side
     * broadcast, as q14's part was at SF 50: 10 M rows with a string each).
     */
    @Test
    void aRangeOfTheLargeSideMovesInsteadOfBroadcastingTheSmallOne() {
        String join = "SELECT t_name, k_price FROM clicks JOIN tags ON k_tag = t_id";
        assertEquals(List.of(Output.BROADCAST, Output.GATHER), outputs(fragments(join + " WHERE k_price > 1")));
        List<FragmentPlanner.Fragment> tenDays = fragments(join + " WHERE k_day >= DATE '2024-03-01' AND k_day < DATE '2024-03-01' + INTERVAL '10' DAY");
        assertEquals(List.of(Output.REPARTITION, Output.GATHER), outputs(tenDays));
        assertEquals("k_tag", movedKey(tenDays.get(0)), "ten of the 200 days of clicks move to where tags lie");
    }

    /**
     * TPC-H q20's shape: a join keeps the share of the fact rows whose keys the filtered dimension
     * keeps (|L| |R| / max(distinct keys), the keys' distinct values from their stored range), not
     * the larger side whole, which made q20's small side look as large as partsupp and its month of
     * lineitem move instead.
     */
    @Test
    void aJoinWithAFilteredDimensionKeepsItsShareOfTheFactRows() {
        // 200 clicks on 20 tags (k_tag 0..19), half of the 20 tags taken to pass the condition: 200 x 10 / 20
        assertEquals(100, RowEstimate.of(join("WHERE t_name <> 'tag 1'"), scan -> false, 1), 1e-9);
        // a LIKE taken to keep a twentieth: one tag, 200 x 1 / 20
        assertEquals(10, RowEstimate.of(join("WHERE t_name LIKE 'tag 1%'"), scan -> false, 1), 1e-9);
        assertEquals(190, RowEstimate.of(join("WHERE t_name NOT LIKE 'tag 1%'"), scan -> false, 1), 1e-9);
    }

    private static JoinNode join(String where) {
        PlanNode plan = QueryPlans.of(session, "SELECT k_price FROM clicks JOIN tags ON k_tag = t_id " + where, List.of()).orElseThrow().plan();
        return (JoinNode) FragmentPlanner.first(plan, JoinNode.class::isInstance);
    }

    /**
     * TPC-H q18's shape, {@code A JOIN (B JOIN C)}: A (grouped by its key, so unique on it) lies with B,
     * C lies apart from B. Turned into {@code (A JOIN B) JOIN C}, the co-located join runs first and its
     * rows move to C; the turned join is named by its fingerprint, and turning the same ones of an equal
     * plan (a shard's) gives the same plan.
     */
    @Test
    void aUniqueSideJoinsWhereItLiesBeforeTheJoinThatMovesRows() {
        PlanNode a = QueryPlans.of(session, "SELECT l_order FROM lines GROUP BY l_order", List.of()).orElseThrow().plan();
        PlanNode b = QueryPlans.of(session, "SELECT o_id, o_cust FROM orders", List.of()).orElseThrow().plan();
        PlanNode c = QueryPlans.of(session, "SELECT n_order, n_v FROM narrow", List.of()).orElseThrow().plan();
        JoinNode bc = new JoinNode(b, c, JoinKind.INNER, List.of(1), List.of(0), null, b.schema().concat(c.schema()));
        JoinNode abc = new JoinNode(a, bc, JoinKind.INNER, List.of(0), List.of(0), null, a.schema().concat(bc.schema()));
        java.util.Set<String> turned = FragmentPlanner.rotations(abc, CATALOG, 3);
        assertEquals(java.util.Set.of(new JoinRotation.Turn(false, true).name(FragmentPlanner.fingerprint(abc))), turned);
        JoinNode rotated = (JoinNode) JoinRotation.apply(abc, turned);
        assertEquals(abc.schema(), rotated.schema());
        assertEquals(List.of(2), rotated.leftKeys(), "o_cust: B's second column, after A's one");
        JoinNode first = (JoinNode) rotated.left();
        assertTrue(first.left() == a && first.right() == b && rotated.right() == c, rotated.describe());
        assertEquals(FragmentPlanner.fingerprint(rotated), FragmentPlanner.fingerprint(JoinRotation.apply(abc, turned)));
        // the co-located join stays on the shards; its rows, or C, move
        List<FragmentPlanner.Fragment> fragments = FragmentPlanner.fragments(rotated, CATALOG, 3);
        assertEquals(Output.GATHER, fragments.get(fragments.size() - 1).output());
        assertTrue(fragments.stream().noneMatch(f -> f.plan() == a || f.plan() == b), "A or B moves whole");
        // B and C co-located, or a single node: nothing to turn
        PlanNode lines = QueryPlans.of(session, "SELECT l_order, l_qty FROM lines", List.of()).orElseThrow().plan();
        JoinNode bLines = new JoinNode(b, lines, JoinKind.INNER, List.of(0), List.of(0), null, b.schema().concat(lines.schema()));
        JoinNode onKeys = new JoinNode(a, bLines, JoinKind.INNER, List.of(0), List.of(0), null, a.schema().concat(bLines.schema()));
        assertEquals(java.util.Set.of(), FragmentPlanner.rotations(onKeys, CATALOG, 3));
        assertEquals(java.util.Set.of(), FragmentPlanner.rotations(abc, CATALOG, 1));
    }

    /**
     * TPC-H q09's shape, {@code (A JOIN B) JOIN C}: B and C lie together by their key, A apart, and A's key
     * to C is the one it joins B on. Turned into {@code A JOIN (B JOIN C)} (B's key joined with C's, as
     * A's equals both), the co-located join runs where its rows lie and only its few rows go to every
     * node, instead of A's rows matched to B moving to C. Not turned when A's join with B is the smaller.
     */
    @Test
    void aSmallJoinOfCoLocatedSidesMovesInsteadOfTheRowsMatchedToOneOfThem() {
        PlanNode a = QueryPlans.of(session, "SELECT k_id, k_tag, k_price FROM clicks", List.of()).orElseThrow().plan();
        PlanNode b = QueryPlans.of(session, "SELECT t_id FROM tags WHERE t_name LIKE 'tag 1%'", List.of()).orElseThrow().plan();
        PlanNode c = QueryPlans.of(session, "SELECT s_tag, s_score FROM scores", List.of()).orElseThrow().plan();
        JoinNode abc = abThenC(a, b, c);
        java.util.Set<String> turned = FragmentPlanner.rotations(abc, CATALOG, 3);
        assertEquals(java.util.Set.of(new JoinRotation.Turn(true, false).name(FragmentPlanner.fingerprint(abc))), turned);
        JoinNode rotated = (JoinNode) JoinRotation.apply(abc, turned);
        assertEquals(abc.schema(), rotated.schema());
        JoinNode bc = (JoinNode) rotated.right();
        assertTrue(rotated.left() == a && bc.left() == b && bc.right() == c, rotated.describe());
        assertEquals(List.of(0), bc.leftKeys(), "t_id = s_tag, as k_tag equals both");
        assertEquals(List.of(0), bc.rightKeys());
        assertEquals(List.of(1), rotated.leftKeys(), "k_tag = t_id; k_tag = s_tag follows");
        assertEquals(List.of(0), rotated.rightKeys());
        List<FragmentPlanner.Fragment> fragments = FragmentPlanner.fragments(rotated, CATALOG, 3);
        assertTrue(fragments.stream().anyMatch(f -> f.output() == Output.BROADCAST && f.plan() == bc), "B JOIN C goes to every node");
        assertTrue(fragments.stream().noneMatch(f -> f.output() == Output.REPARTITION), "nothing else moves");
        // C JOIN (A JOIN B), as the shards' statistics of TPC-H SF 1 plan q09: C and B join first, their columns put back in order
        JoinNode ab = (JoinNode) abc.left();
        JoinNode cab = new JoinNode(c, ab, JoinKind.INNER, List.of(0), List.of(1), null, c.schema().concat(ab.schema()));
        java.util.Set<String> mirrored = FragmentPlanner.rotations(cab, CATALOG, 3);
        assertEquals(java.util.Set.of(new JoinRotation.Turn(false, false).name(FragmentPlanner.fingerprint(cab))), mirrored);
        ProjectNode reordered = (ProjectNode) JoinRotation.apply(cab, mirrored);
        assertEquals(cab.schema(), reordered.schema());
        JoinNode cb = (JoinNode) ((JoinNode) reordered.input()).left();
        assertTrue(cb.left() == c && cb.right() == b && ((JoinNode) reordered.input()).right() == a, reordered.describe());
        assertEquals(List.of(0, 1, 3, 4, 5, 2), reordered.exprs().stream().map(e -> ((io.warpdb.core.expr.ColumnRef) e).index()).toList(),
                "s_tag, s_score, then t_id after k_id, k_tag, k_price");
        // two days of clicks matched to every tag: fewer bytes than every tag with its score
        PlanNode twoDays = QueryPlans.of(session, "SELECT k_id, k_tag, k_price FROM clicks WHERE k_day >= DATE '2024-03-01' "
                + "AND k_day < DATE '2024-03-03'", List.of()).orElseThrow().plan();
        PlanNode everyTag = QueryPlans.of(session, "SELECT t_id FROM tags", List.of()).orElseThrow().plan();
        assertEquals(java.util.Set.of(), FragmentPlanner.rotations(abThenC(twoDays, everyTag, c), CATALOG, 3));
    }

    /**
     * TPC-H q10's shape: sales JOIN ((buyers JOIN deals) JOIN regions), then the top buyers by their
     * sales. Built again with sales first, deals next (both by deal id: where they lie), then buyers
     * joined with their regions (on every node), the buyers' aggregate runs where its rows lie and only each shard's top rows go to
     * the coordinator: fewer bytes than the deals moving to the buyers, the joined rows with the
     * buyers' names moving to the sales and every shard's partial groups to the coordinator. Every
     * shard builds the same plan from the order's name.
     */
    @Test
    void joinsAreReorderedWhereTheOrderMovesFewerBytes() {
        PlanNode sales = QueryPlans.of(session, "SELECT s_deal, s_qty FROM sales", List.of()).orElseThrow().plan();
        PlanNode buyers = QueryPlans.of(session, "SELECT b_id, b_name, b_region FROM buyers", List.of()).orElseThrow().plan();
        PlanNode deals = QueryPlans.of(session, "SELECT d_id, d_buyer FROM deals", List.of()).orElseThrow().plan();
        PlanNode regions = QueryPlans.of(session, "SELECT r_id, r_name FROM regions", List.of()).orElseThrow().plan();
        JoinNode buyerDeals = new JoinNode(buyers, deals, JoinKind.INNER, List.of(0), List.of(1), null, buyers.schema().concat(deals.schema()));
        JoinNode withRegions = new JoinNode(buyerDeals, regions, JoinKind.INNER, List.of(2), List.of(0), null,
                buyerDeals.schema().concat(regions.schema()));
        JoinNode all = new JoinNode(sales, withRegions, JoinKind.INNER, List.of(0), List.of(3), null, sales.schema().concat(withRegions.schema()));
        // SUM(s_qty) per buyer, top 5
        io.warpdb.core.plan.AggCall sum = new io.warpdb.core.plan.AggCall(io.warpdb.core.plan.AggFunction.SUM, List.of(1), false,
                io.warpdb.core.types.DataType.BIGINT, "qty");
        AggregateNode perBuyer = new AggregateNode(all, List.of(2), List.of(sum), new io.warpdb.core.types.Schema(List.of(
                all.schema().field(2), new io.warpdb.core.types.Field("qty", io.warpdb.core.types.DataType.BIGINT))));
        PlanNode plan = new SortNode(perBuyer, List.of(new io.warpdb.core.plan.SortKey(1, true, false)), 0, 5);

        java.util.Set<String> names = FragmentPlanner.joinOrders(plan, CATALOG, 3);
        assertEquals(java.util.Set.of(JoinOrder.name(List.of(List.of(0), List.of(2), List.of(1, 3)), FragmentPlanner.fingerprint(all))), names,
                "sales, deals, then buyers joined with their regions");
        PlanNode reordered = JoinOrder.apply(plan, names);
        assertEquals(plan.schema(), reordered.schema());
        assertTrue(FragmentPlanner.bytesMoved(reordered, CATALOG, 3) < FragmentPlanner.bytesMoved(plan, CATALOG, 3));
        ProjectNode back = (ProjectNode) ((AggregateNode) ((SortNode) reordered).input()).input();
        assertEquals(all.schema(), back.schema(), "the columns in plan order");
        JoinNode last = (JoinNode) back.input();
        JoinNode first = (JoinNode) last.left();
        JoinNode unit = (JoinNode) last.right();
        assertTrue(first.left() == sales && first.right() == deals && unit.left() == buyers && unit.right() == regions,
                reordered.describe());
        List<FragmentPlanner.Fragment> fragments = FragmentPlanner.fragments(reordered, CATALOG, 3);
        assertTrue(fragments.stream().noneMatch(FragmentPlanner.Fragment::partial), "the aggregate runs where its rows lie");
        assertTrue(fragments.get(fragments.size() - 1).topN(), "each shard sends its top rows");
        // a shard's copy of the plan, built again from the name, is the same plan
        assertEquals(FragmentPlanner.fingerprint(reordered), FragmentPlanner.fingerprint(JoinOrder.apply(plan, names)));
        assertEquals(java.util.Set.of(), FragmentPlanner.joinOrders(plan, CATALOG, 1));
    }

    /** {@code (A JOIN B ON A's second column = B's first) JOIN C ON A's second column = C's first}. */
    private static JoinNode abThenC(PlanNode a, PlanNode b, PlanNode c) {
        JoinNode ab = new JoinNode(a, b, JoinKind.INNER, List.of(1), List.of(0), null, a.schema().concat(b.schema()));
        return new JoinNode(ab, c, JoinKind.INNER, List.of(1), List.of(0), null, ab.schema().concat(c.schema()));
    }

    /** TPC-H q15's shape: a view in the join and under its MAX is one fragment, whose merged groups the coordinator reads twice. */
    @Test
    void aSubtreeThePlanHoldsTwiceRunsOnce() {
        List<FragmentPlanner.Fragment> fragments = fragments("WITH r AS (SELECT l_cust, SUM(l_qty) AS q FROM lines GROUP BY l_cust) "
                + "SELECT l_cust FROM r WHERE q = (SELECT MAX(q) FROM r)");
        assertEquals(List.of(Output.MERGE), outputs(fragments));
    }

    /** A shard plans the ticket's query from the statistics the coordinator planned it from: they travel in the ticket. */
    @Test
    void aTicketCarriesTheStatisticsOfTheTablesThePlanScans() {
        String sql = "SELECT COUNT(*) FROM events JOIN orders ON e_cust = o_cust";
        PlanNode plan = QueryPlans.of(session, sql, List.of()).orElseThrow().plan();
        FragmentTicket ticket = new FragmentTicket(FragmentPlanner.fingerprint(plan), sql, List.of(), null, false, false, "auto",
                PinnedStatistics.of(plan), List.of(FragmentPlanner.fingerprint(plan)));
        assertEquals(List.of("events", "orders"), List.copyOf(ticket.statistics().tables().keySet()));
        assertEquals(60, ticket.statistics().tables().get("events").rows());
        assertEquals(ticket, FragmentTicket.parse(ticket.text()).orElseThrow());
    }

    @Test
    void aSmallSideIsBroadcastWhereTheLargeSideLies() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT COUNT(*) FROM events JOIN orders ON e_cust = o_cust");
        assertEquals(List.of(Output.BROADCAST, Output.MERGE), outputs(fragments));
        assertTrue(fragments.get(0).plan().describe().contains("orders"), fragments.get(0).plan().describe());
        // a FULL join keeps neither side's rows apart: both repartition
        assertEquals(List.of(Output.REPARTITION, Output.REPARTITION, Output.MERGE),
                outputs(fragments("SELECT COUNT(*) FROM events FULL JOIN orders ON e_cust = o_cust")));
    }

    /**
     * A decorrelated subquery's aggregate (TPC-H q17's shape) joined beside a shard-local side runs
     * whole on the shards, its input repartitioned by its group key, so that the join stays there
     * too instead of bringing every row of the other side to the coordinator; on top of a join
     * with a replicated side (or of nothing) it still merges partially.
     */
    @Test
    void anAggregateAJoinReadsBesideAShardLocalSideRunsWhollyOnTheShards() {
        List<FragmentPlanner.Fragment> fragments = fragments("SELECT COUNT(*), SUM(l_qty) FROM lines"
                + " JOIN (SELECT l_cust AS k, AVG(l_qty) AS a FROM lines GROUP BY l_cust) g ON l_cust = g.k WHERE l_qty < g.a");
        // the aggregate's input repartitioned by its group key, its groups broadcast to the join beside lines' rows, COUNT and SUM merged
        assertEquals(List.of(Output.REPARTITION, Output.BROADCAST, Output.MERGE), outputs(fragments));
        assertTrue(fragments.get(1).plan() instanceof AggregateNode aggregate && aggregate.groupKeys().size() == 1,
                fragments.get(1).plan().describe());
        assertTrue(contains(fragments.get(2).plan(), JoinNode.class));
        // beside a replicated side the partial aggregate stays, merged by the coordinator before the join
        assertEquals(List.of(Output.MERGE), outputs(fragments("SELECT c_name, g.s FROM cust"
                + " JOIN (SELECT l_cust AS k, SUM(l_qty) AS s FROM lines GROUP BY l_cust) g ON c_id = g.k")));
    }

    @Test
    void joinsWithoutEqualityKeysOfComparableSidesJoinOnTheCoordinator() {
        assertEquals(List.of(Output.GATHER, Output.GATHER), outputs(fragments("SELECT COUNT(*) FROM orders JOIN lines ON o_cust < l_cust")));
    }

    private static List<Output> outputs(List<FragmentPlanner.Fragment> fragments) {
        return fragments.stream().map(FragmentPlanner.Fragment::output).toList();
    }

    @Test
    void replicatedTablesAloneRunOnTheCoordinator() {
        assertEquals(List.of(), fragments("SELECT c_name, COUNT(*) FROM cust GROUP BY c_name"));
    }

    private static boolean contains(PlanNode node, Class<? extends PlanNode> kind) {
        return kind.isInstance(node) || node.inputs().stream().anyMatch(input -> contains(input, kind));
    }
}
