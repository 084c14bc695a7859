package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.warpdb.core.data.ColumnStatistics;
import io.warpdb.core.plan.PlanNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two databases of one schema whose tables hold different numbers of rows (as a cluster's shards
 * do) plan a join differently from their own statistics, and alike from one's pinned statistics.
 */
class PinnedStatisticsTest {
    private static final String JOIN = "select a.name, e.happened from accounts a join events e on a.k = e.k"
            + " where e.happened >= DATE '2020-01-05'";

    private Database large;
    private Database small;
    private Session largeSession;
    private Session smallSession;

    @BeforeEach
    void setUp() {
        large = Database.inMemory("large");
        small = Database.inMemory("small");
        largeSession = large.newSession();
        smallSession = small.newSession();
        fill(largeSession, 1000, 200);
        fill(smallSession, 100, 400);
    }

    @AfterEach
    void tearDown() {
        largeSession.close();
        smallSession.close();
        large.close();
        small.close();
    }

    /** {@code events} events, one a day from 2020-01-01, and {@code accounts} accounts. */
    private static void fill(Session session, int events, int accounts) {
        session.execute("create table events (k integer, happened date)", List.of()).close();
        session.execute("create table accounts (k integer, name varchar(10))", List.of()).close();
        StringBuilder rows = new StringBuilder("insert into events values ");
        for (int i = 0; i < events; i++) {
            rows.append(i == 0 ? "" : ", ").append("(").append(i % 300).append(", DATE '2020-01-01' + INTERVAL '").append(i).append("' DAY)");
        }
        session.execute(rows.toString(), List.of()).close();
        rows = new StringBuilder("insert into accounts values ");
        for (int i = 0; i < accounts; i++) {
            rows.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'a").append(i).append("')");
        }
        session.execute(rows.toString(), List.of()).close();
    }

    private static PlanNode plan(Session session, PinnedStatistics pinned) {
        return QueryPlans.of(session, JOIN, List.of(), pinned).orElseThrow().plan();
    }

    /** Each node's description, depth first: what a cluster's shard matches the coordinator's fragments by. */
    private static String tree(PlanNode node) {
        StringBuilder text = new StringBuilder(node.describe()).append('[');
        node.inputs().forEach(input -> text.append(tree(input)));
        return text.append(']').toString();
    }

    @Test
    void aDatabasePlansAsAnotherFromItsPinnedStatistics() {
        PlanNode largePlan = plan(largeSession, null);
        assertNotEquals(tree(largePlan), tree(plan(smallSession, null)), "the two databases' own statistics make different plans");
        PinnedStatistics pinned = PinnedStatistics.of(largePlan);
        assertEquals(List.of("accounts", "events"), List.copyOf(pinned.tables().keySet()));
        assertEquals(1000, pinned.tables().get("events").rows());
        PinnedStatistics.Column happened = pinned.tables().get("events").columns().get(1);
        assertEquals(PinnedStatistics.Column.INTEGRAL, happened.kind());
        assertEquals(999, happened.max() - happened.min(), "one event a day");
        assertEquals(tree(largePlan), tree(plan(smallSession, pinned)));
        // a plan kept for the pinned statistics is not another's: the own statistics still plan as before
        assertNotEquals(tree(largePlan), tree(plan(smallSession, null)));
        try (StatementResult rows = QueryPlans.run(smallSession, plan(smallSession, pinned), QueryPlans.of(smallSession, JOIN, List.of())
                .orElseThrow().schema())) {
            assertEquals(96 - 96 / 300, rows.rows().stream().filter(row -> row.get(0) != null).count(),
                    "the pinned plan reads the small database's own rows");
        }
    }

    @Test
    void columnsKeepWhatThePlannerReadsOfThem() {
        assertEquals(PinnedStatistics.Column.NONE, PinnedStatistics.Column.of(Optional.empty()).kind());
        assertEquals(new ColumnStatistics(3, null, null),
                PinnedStatistics.Column.of(Optional.of(new ColumnStatistics(3, null, null))).statistics().orElseThrow());
        assertEquals(new ColumnStatistics(0, true, true),
                PinnedStatistics.Column.of(Optional.of(new ColumnStatistics(0, true, true))).statistics().orElseThrow());
        assertEquals(new ColumnStatistics(1, -5L, 7L),
                PinnedStatistics.Column.of(Optional.of(new ColumnStatistics(1, -5L, 7L))).statistics().orElseThrow());
        assertEquals(PinnedStatistics.Column.OTHER,
                PinnedStatistics.Column.of(Optional.of(new ColumnStatistics(0, "a", "z"))).kind());
    }
}
