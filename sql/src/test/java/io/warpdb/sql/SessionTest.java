package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Statements end to end through the planner and the CPU executor, below JDBC. */
class SessionTest {
    private Database db;
    private Session session;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("test");
        session = db.newSession();
        update("create table emp (id integer not null, name varchar(20), dept integer, salary decimal(10,2))");
        update("create table dept (id integer, title varchar(20))");
        update("insert into emp values (1, 'ann', 10, 100.50), (2, 'bob', 10, 200.25), (3, 'cid', 20, null), (4, null, null, 50)");
        update("insert into dept values (10, 'eng'), (20, 'ops'), (30, 'hr')");
    }

    @AfterEach
    void tearDown() {
        session.close();
        db.close();
    }

    private long update(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.updateCount();
        }
    }

    private List<List<Object>> query(String sql, Object... params) {
        try (StatementResult r = session.execute(sql, Arrays.asList(params))) {
            return r.rows();
        }
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void selectWithFilterProjectAndOrder() {
        assertEquals(List.of(row("bob", new BigDecimal("400.50")), row("ann", new BigDecimal("201.00"))),
                query("select name, salary * 2 from emp where dept = 10 order by salary desc"));
    }

    @Test
    void groupByWithHavingAndNullGroup() {
        assertEquals(List.of(row(null, 1L, new BigDecimal("50.00")), row(10, 2L, new BigDecimal("300.75")), row(20, 1L, null)),
                query("select dept, count(*), sum(salary) from emp group by dept having count(*) >= 1 order by dept nulls first"));
    }

    @Test
    void joinsInnerAndLeft() {
        assertEquals(List.of(row("ann", "eng"), row("bob", "eng"), row("cid", "ops")),
                query("select e.name, d.title from emp e join dept d on e.dept = d.id order by e.id"));
        assertEquals(List.of(row("eng", 2L), row("hr", 0L), row("ops", 1L)),
                query("select d.title, count(e.id) from dept d left join emp e on e.dept = d.id group by d.title order by 1"));
    }

    @Test
    void parametersAreBound() {
        assertEquals(List.of(row(2)), query("select id from emp where name = ? and salary > ?", "bob", new BigDecimal("1")));
        PreparedStatement info = session.prepare("select name from emp where id = ? and salary < ?");
        assertEquals(List.of(DataType.INTEGER, DataType.decimal(10, 2)), info.parameterTypes());
        assertEquals("name", info.resultSchema().field(0).name());
    }

    @Test
    void insertSelectAndCreateTableAs() {
        update("create table rich as select id, name from emp where salary > 100");
        assertEquals(2, update("insert into rich select id + 10, name from emp where salary > 100"));
        assertEquals(List.of(row(4L)), query("select count(*) from rich"));
    }

    @Test
    void deleteUpdateAndViews() {
        assertEquals(1, update("delete from emp where name is null"));
        assertEquals(2, update("update emp set salary = salary + 1, name = upper(name) where dept = 10"));
        assertEquals(List.of(row(1, "ANN", new BigDecimal("101.50")), row(2, "BOB", new BigDecimal("201.25")), row(3, "cid", null)),
                query("select id, name, salary from emp order by id"));
        update("create view eng (who, pay) as select name, salary from emp where dept = 10");
        assertEquals(List.of(row("BOB")), query("select who from eng where pay > 200"));
        assertEquals(SqlState.DUPLICATE_TABLE, error("create view eng as select 1"));
        update("drop view eng");
        assertEquals(SqlState.UNDEFINED_TABLE, error("select * from eng"));
    }

    @Test
    void limitOffset() {
        assertEquals(List.of(row(2), row(3)), query("select id from emp order by id limit 2 offset 1"));
    }

    @Test
    void explainShowsExecutorPerNode() {
        // cpu, not the default auto: this module's tests also register TestFilterExecutor, which auto would use.
        update("set executor = cpu");
        List<List<Object>> plan = query("explain select name from emp where id > 1");
        assertTrue(plan.stream().allMatch(r -> ((String) r.get(0)).endsWith("[cpu]")), plan.toString());
        assertTrue(plan.get(plan.size() - 1).get(0).toString().contains("Scan(table=emp"), plan.toString());
    }

    @Test
    void errorsCarrySqlStates() {
        assertEquals(SqlState.SYNTAX_ERROR, error("select * fro emp"));
        assertEquals(SqlState.UNDEFINED_TABLE, error("select * from nope"));
        assertEquals(SqlState.UNDEFINED_COLUMN, error("select nope from emp"));
        assertEquals(SqlState.DATATYPE_MISMATCH, error("select * from emp where id = date '2020-01-01'"));
        assertEquals(SqlState.DUPLICATE_TABLE, error("create table emp (x integer)"));
        assertEquals(SqlState.DIVISION_BY_ZERO, error("select id / 0 from emp"));
        assertEquals(SqlState.NOT_NULL_VIOLATION, error("insert into emp values (null, 'x', 1, 1)"));
        WarpException syntax = assertThrows(WarpException.class, () -> session.execute("select *\nfrom emp wher id = 1", List.of()));
        assertTrue(syntax.getMessage().contains("line 2, column"), syntax.getMessage());
        assertEquals(List.of(row(4L)), query("select count(*) from emp"), "failed statements changed nothing");
    }

    /** A table of 250,000 rows: v in [0, 250000), k = v % 1000. */
    private void createBigTable() {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            values.append(i == 0 ? "" : ", ").append('(').append(i).append(')');
        }
        update("create table big as select a.x * 500 + b.x as v, mod(a.x * 500 + b.x, 1000) as k from (values " + values
                + ") as a(x), (values " + values + ") as b(x)");
    }

    @Test
    void aStatementOverItsMemoryLimitFailsWith53200AndTheSessionGoesOn() {
        createBigTable();
        update("set memory_limit = '1MB'");
        WarpException e = assertThrows(WarpException.class,
                () -> query("select count(*) from big p join big q on p.v = q.v"));
        assertEquals(SqlState.OUT_OF_MEMORY, e.state(), e.getMessage());
        assertTrue(e.getMessage().contains("memory_limit"), e.getMessage());
        update("set memory_limit = '1GB'");
        assertEquals(List.of(row(250_000L)), query("select count(*) from big p join big q on p.v = q.v"));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, assertThrows(WarpException.class,
                () -> update("set memory_limit = 'lots'")).state());
    }

    @Test
    void parallelismIsASessionSettingAndResultsDoNotDependOnIt() {
        createBigTable();
        String sql = "select k, count(*), sum(v) from big where v % 3 = 0 group by k order by k limit 3";
        List<List<Object>> parallel = query(sql);
        update("set parallelism = 1");
        assertEquals(1, session.parallelism());
        assertEquals(parallel, query(sql));
        // k = 0: v = 1000 j for j < 250, of which the 84 with j % 3 = 0 pass; their sum is 1000 * 3 * (0 + ... + 83).
        assertEquals(84L, parallel.get(0).get(1));
        assertEquals(10_458_000L, ((Number) parallel.get(0).get(2)).longValue());
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, assertThrows(WarpException.class,
                () -> update("set parallelism = 0")).state());
    }

    private SqlState error(String sql) {
        return assertThrows(WarpException.class, () -> query(sql)).state();
    }
}
