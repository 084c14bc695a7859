package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a plan carries of its columns after {@link ColumnPruning}: only what is read above each join and scan. */
class ColumnPruningTest {
    private static Database database;
    private static Session session;

    @BeforeAll
    static void tables() {
        database = Database.inMemory("pruning");
        session = database.newLocalSession();
        for (String ddl : List.of("CREATE TABLE sales (s_id BIGINT, s_deal INT, s_qty INT, s_note VARCHAR(40))",
                "CREATE TABLE deals (d_id INT, d_buyer INT, d_day DATE)", "CREATE TABLE buyers (b_id INT, b_name VARCHAR(40))")) {
            session.execute(ddl, List.of()).close();
        }
    }

    @AfterAll
    static void close() {
        session.close();
        database.close();
    }

    private static PlanNode scan(String sql) {
        return QueryPlans.of(session, sql, List.of()).orElseThrow().plan();
    }

    /**
     * TPC-H q05's shape: (sales JOIN deals) JOIN buyers, of which only s_qty and b_name are read. The
     * first join's output keeps s_qty and the key to buyers, under a projection (d_id is its own key,
     * read by it alone), and the scans read only their keys and what is read above.
     */
    @Test
    void aJoinsInputCarriesOnlyTheColumnsReadAboveIt() {
        PlanNode sales = scan("SELECT s_id, s_deal, s_qty, s_note FROM sales");
        PlanNode deals = scan("SELECT d_id, d_buyer, d_day FROM deals");
        PlanNode buyers = scan("SELECT b_id, b_name FROM buyers");
        JoinNode salesDeals = new JoinNode(sales, deals, JoinKind.INNER, List.of(1), List.of(0), null, sales.schema().concat(deals.schema()));
        JoinNode all = new JoinNode(salesDeals, buyers, JoinKind.INNER, List.of(5), List.of(0), null, salesDeals.schema().concat(buyers.schema()));
        ProjectNode read = new ProjectNode(all, List.of(new ColumnRef(2, all.schema().type(2)), new ColumnRef(8, all.schema().type(8))),
                new Schema(List.of(new Field("s_qty", all.schema().type(2)), new Field("b_name", all.schema().type(8)))));

        ProjectNode pruned = (ProjectNode) ColumnPruning.prune(read);
        assertEquals(read.schema(), pruned.schema());
        JoinNode top = (JoinNode) pruned.input();
        ProjectNode moved = (ProjectNode) top.left();
        assertEquals(List.of("s_qty", "d_buyer"), moved.schema().fields().stream().map(Field::name).toList(),
                "the rows that would move to buyers: what is read above, and the key");
        JoinNode first = (JoinNode) moved.input();
        assertEquals(List.of("s_deal", "s_qty"), ((ScanNode) first.left()).schema().fields().stream().map(Field::name).toList());
        assertEquals(List.of("d_id", "d_buyer"), ((ScanNode) first.right()).schema().fields().stream().map(Field::name).toList());
        assertEquals(List.of(0), first.leftKeys());
        assertEquals(List.of(0), first.rightKeys());
        assertEquals(List.of(1), top.leftKeys(), "d_buyer, second of the moved columns");
        assertEquals(List.of("s_qty", "d_buyer", "b_id", "b_name"), top.schema().fields().stream().map(Field::name).toList());
        assertEquals(List.of(0, 3), pruned.exprs().stream().map(e -> ((ColumnRef) e).index()).toList());
    }

    /** A count of a join's rows reads no column of it: the join keeps its keys, the projection above it one of them. */
    @Test
    void aCountOfAJoinsRowsKeepsOneOfItsKeys() {
        PlanNode sales = scan("SELECT s_id, s_deal, s_qty, s_note FROM sales");
        PlanNode deals = scan("SELECT d_id, d_buyer, d_day FROM deals");
        JoinNode join = new JoinNode(sales, deals, JoinKind.INNER, List.of(1), List.of(0), null, sales.schema().concat(deals.schema()));
        io.warpdb.core.plan.AggCall count = new io.warpdb.core.plan.AggCall(io.warpdb.core.plan.AggFunction.COUNT_STAR, List.of(), false,
                io.warpdb.core.types.DataType.BIGINT, "n");
        io.warpdb.core.plan.AggregateNode rows = new io.warpdb.core.plan.AggregateNode(join, List.of(), List.of(count),
                new Schema(List.of(new Field("n", io.warpdb.core.types.DataType.BIGINT))));
        io.warpdb.core.plan.AggregateNode pruned = (io.warpdb.core.plan.AggregateNode) ColumnPruning.prune(rows);
        ProjectNode one = (ProjectNode) pruned.input();
        assertEquals(List.of("s_deal"), one.schema().fields().stream().map(Field::name).toList());
        assertEquals(List.of(0), one.exprs().stream().map(e -> ((ColumnRef) e).index()).toList(), "s_deal, the join's first column kept");
    }

    /** A semi join's right side keeps its keys alone; a plan that reads every column is left as it is. */
    @Test
    void aSemiJoinsRightSideKeepsItsKeysAndAFullReadStaysWhole() {
        PlanNode sales = scan("SELECT s_id, s_deal, s_qty, s_note FROM sales");
        PlanNode deals = scan("SELECT d_id, d_buyer, d_day FROM deals");
        JoinNode semi = new JoinNode(sales, deals, JoinKind.SEMI, List.of(1), List.of(0), null, sales.schema());
        JoinNode pruned = (JoinNode) ColumnPruning.prune(semi);
        assertEquals(semi.schema(), pruned.schema());
        assertEquals(List.of("d_id"), pruned.right().schema().fields().stream().map(Field::name).toList());
        assertTrue(pruned.left() instanceof ScanNode scan && scan.schema().equals(sales.schema()), pruned.describe());
    }
}
