package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.storage.StorageOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PRIMARY KEYs kept in the catalog across restarts, and the grouping on a key that they allow. */
class PrimaryKeyTest {
    @TempDir
    Path dir;

    private static void execute(Session session, String sql) {
        session.execute(sql, List.of()).close();
    }

    private static String plan(Session session, String sql) {
        List<String> lines = new ArrayList<>();
        try (StatementResult r = session.execute("EXPLAIN " + sql, List.of())) {
            r.rows().forEach(row -> lines.add((String) row.get(0)));
        }
        return String.join("\n", lines);
    }

    private static List<String> key(Database db, String table) {
        return PrimaryKeys.of(db.catalog().properties(), table);
    }

    @Test
    void keysSurviveARestartAndGoWithTheirTable() {
        try (Database db = Database.open(dir, StorageOptions.defaults()); Session s = db.newSession()) {
            execute(s, "create table cust (id integer primary key, name varchar(10), city varchar(10))");
            execute(s, "create table line (k integer, n integer, qty integer, constraint line_pk primary key (N, k))");
            execute(s, "create table plain (a integer unique, b integer)");
            execute(s, "create table copied as select * from cust");
        }
        try (Database db = Database.open(dir, StorageOptions.defaults()); Session s = db.newSession()) {
            assertEquals(List.of("id"), key(db, "cust"));
            assertEquals(List.of("n", "k"), key(db, "LINE"));
            assertEquals(List.of(), key(db, "plain"));
            assertEquals(List.of(), key(db, "copied"));
            assertTrue(plan(s, "select id, name, city, count(*) from cust group by id, name, city").contains("ANY_VALUE("),
                    plan(s, "select id, name, city, count(*) from cust group by id, name, city"));
            execute(s, "drop table cust");
            execute(s, "create table cust (id integer, name varchar(10))");
            assertEquals(List.of(), key(db, "cust"));
        }
        try (Database db = Database.open(dir, StorageOptions.defaults())) {
            assertEquals(List.of(), key(db, "cust"));
            assertEquals(List.of("n", "k"), key(db, "line"));
        }
    }

    @Test
    void groupsOnTheKeyAloneOnlyWhereItDeterminesTheOtherKeys() {
        try (Database db = Database.inMemory("pk"); Session s = db.newSession()) {
            execute(s, "create table cust (id integer primary key, name varchar(10), city varchar(10), code varchar(5) unique,"
                    + " rid integer)");
            execute(s, "create table ord (oid integer primary key, cust_id integer, amount integer)");
            execute(s, "create table region (rid integer primary key, rname varchar(10))");
            // Q10's shape: the customer key carries the region's name through c.rid = r.rid.
            String q10 = plan(s, "select c.id, c.name, r.rname, sum(o.amount) from cust c join ord o on o.cust_id = c.id"
                    + " join region r on c.rid = r.rid group by c.id, c.name, r.rname");
            assertTrue(q10.matches("(?s).*Aggregate\\(groupBy=\\[\\$\\d+\\], .*"), q10);
            String joined = plan(s, "select c.id, c.name, c.city, sum(o.amount) from cust c join ord o on o.cust_id = c.id"
                    + " group by c.id, c.name, c.city");
            assertTrue(joined.contains("ANY_VALUE(") && joined.indexOf("ANY_VALUE(") != joined.lastIndexOf("ANY_VALUE("), joined);
            // Q18's shape: the order key carries the customer's key through o.cust_id = c.id.
            String q18 = plan(s, "select c.name, c.id, o.oid, o.amount, count(*) from cust c join ord o on o.cust_id = c.id"
                    + " group by c.name, c.id, o.oid, o.amount");
            assertTrue(q18.matches("(?s).*Aggregate\\(groupBy=\\[\\$\\d+\\], .*"), q18);
            for (String notReduced : List.of(
                    "select name, city, count(*) from cust group by name, city",
                    "select code, name, count(*) from cust group by code, name",
                    "select a.id, b.name, count(*) from cust a join cust b on a.city = b.city group by a.id, b.name",
                    "select o.oid, c.name, count(*) from cust c left join ord o on o.cust_id = c.id group by o.oid, c.name",
                    "select c.id, c.name, count(*) from cust c left join ord o on o.cust_id = c.id group by c.id, c.name")) {
                String plan = plan(s, notReduced);
                assertTrue(!plan.contains("ANY_VALUE("), notReduced + "\n" + plan);
            }
        }
    }

    @Test
    void aTableHasOnePrimaryKey() {
        try (Database db = Database.inMemory("pk"); Session s = db.newSession()) {
            WarpException twice = assertThrows(WarpException.class,
                    () -> execute(s, "create table t (a integer primary key, b integer, primary key (b))"));
            assertEquals(SqlState.INVALID_SQL_STATEMENT, twice.state());
            WarpException repeated = assertThrows(WarpException.class, () -> execute(s, "create table t (a integer, primary key (a, A))"));
            assertEquals(SqlState.DUPLICATE_COLUMN, repeated.state());
        }
    }
}
