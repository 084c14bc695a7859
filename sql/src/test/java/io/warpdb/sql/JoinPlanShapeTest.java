package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which input a join builds on, decided from estimates that use storage's column ranges. */
class JoinPlanShapeTest {
    private Database db;
    private Session session;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("test");
        session = db.newSession();
        execute("create table events (k integer, happened date)");
        execute("create table accounts (k integer, name varchar(10))");
        // 1,000 events, one a day from 2020-01-01; 200 accounts.
        StringBuilder events = new StringBuilder("insert into events values ");
        for (int i = 0; i < 1000; i++) {
            events.append(i == 0 ? "" : ", ").append("(").append(i % 300).append(", DATE '2020-01-01' + INTERVAL '").append(i)
                    .append("' DAY)");
        }
        execute(events.toString());
        StringBuilder accounts = new StringBuilder("insert into accounts values ");
        for (int i = 0; i < 200; i++) {
            accounts.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'a").append(i).append("')");
        }
        execute(accounts.toString());
    }

    @AfterEach
    void tearDown() {
        session.close();
        db.close();
    }

    private void execute(String sql) {
        session.execute(sql, List.of()).close();
    }

    private List<String> plan(String sql) {
        List<String> lines = new ArrayList<>();
        try (StatementResult r = session.execute("EXPLAIN " + sql, List.of())) {
            r.rows().forEach(row -> lines.add((String) row.get(0)));
        }
        return lines;
    }

    /** The index of the first plan line containing {@code text}. */
    private static int lineOf(List<String> plan, String text) {
        for (int i = 0; i < plan.size(); i++) {
            if (plan.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError(text + " not in " + plan);
    }

    @Test
    void tenDaysOfEventsAreEstimatedFromTheDateRangeAndBuiltOn() {
        // Calcite's guess for two comparisons keeps 25 % (250 events, more than the 200 accounts);
        // the range of days says 10 of 1,000: the filtered events are the smaller side, built on (listed second).
        String sql = "select a.name, e.happened from accounts a join events e on a.k = e.k"
                + " where e.happened >= DATE '2020-03-01' and e.happened < DATE '2020-03-01' + INTERVAL '10' DAY";
        List<String> plan = plan(sql);
        assertTrue(lineOf(plan, "Scan(table=accounts") < lineOf(plan, "Scan(table=events"), String.join("\n", plan));
        try (StatementResult r = session.execute(sql, List.of())) {
            assertEquals(10 - 10 / 300, r.rows().stream().filter(row -> row.get(0) != null).count());
        }
    }

    @Test
    void mostOfTheEventsAreTheLargerSideAndProbe() {
        String sql = "select a.name, e.happened from accounts a join events e on a.k = e.k where e.happened >= DATE '2020-01-10'";
        List<String> plan = plan(sql);
        assertTrue(lineOf(plan, "Scan(table=events") < lineOf(plan, "Scan(table=accounts"), String.join("\n", plan));
    }
}
