package io.warpdb.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TpchQueriesTest {
    @Test
    void allTwentyTwoAreThere() {
        assertEquals(22, TpchQueries.all().size());
        for (TpchQuery q : TpchQueries.all()) {
            assertTrue(q.sql().toLowerCase().contains("select"), q.name());
            assertTrue(!q.sql().strip().endsWith(";"), q.name() + ": one statement, no terminator");
        }
        assertEquals("q07", TpchQueries.get(7).name());
        assertThrows(IllegalArgumentException.class, () -> TpchQueries.get(23));
    }

    @Test
    void orderByColumnsAreTheTopLevelOnes() {
        assertEquals(List.of("l_returnflag", "l_linestatus"), TpchQueries.get(1).orderBy());
        assertEquals(List.of("s_acctbal", "n_name", "s_name", "p_partkey"), TpchQueries.get(2).orderBy());
        assertEquals(List.of("revenue", "o_orderdate"), TpchQueries.get(3).orderBy());
        assertEquals(List.of(), TpchQueries.get(6).orderBy());
        assertEquals(List.of("nation", "o_year"), TpchQueries.get(9).orderBy());
        assertEquals(List.of("value"), TpchQueries.get(11).orderBy());
        assertEquals(List.of("custdist", "c_count"), TpchQueries.get(13).orderBy());
        assertEquals(List.of(), TpchQueries.get(17).orderBy(), "the subquery's parentheses hide nothing at the top");
        assertEquals(List.of("o_totalprice", "o_orderdate"), TpchQueries.get(18).orderBy());
        assertEquals(List.of("numwait", "s_name"), TpchQueries.get(21).orderBy());
    }

    @Test
    void tablesReadAreTheOnesNamedOutsideLiterals() {
        assertEquals(List.of(TpchSchema.LINEITEM), TpchQueries.get(1).tables());
        assertEquals(List.of(TpchSchema.PARTSUPP, TpchSchema.PART, TpchSchema.SUPPLIER), TpchQueries.get(16).tables(),
                "'%Customer%Complaints%' is a literal, not the customer table");
        assertEquals(List.of(TpchSchema.LINEITEM, TpchSchema.ORDERS, TpchSchema.CUSTOMER, TpchSchema.SUPPLIER,
                TpchSchema.NATION, TpchSchema.REGION), TpchQueries.get(5).tables());
        assertEquals(List.of(TpchSchema.LINEITEM), TpchQueries.tablesRead(TpchQueries.select(List.of(1, 6))));
        assertEquals(TpchSchema.tables(), TpchQueries.tablesRead(TpchQueries.all()));
        assertEquals(List.of(TpchQueries.get(6), TpchQueries.get(1)), TpchQueries.select(List.of(6, 1)));
        assertEquals(TpchQueries.all(), TpchQueries.select(List.of()));
    }

    @Test
    void everyQueryRunsOnDuckDbAndOrdersByResultColumns() {
        try (DuckDbReference duckdb = DuckDbReference.open()) {
            duckdb.load(new TpchGenerator(0.01), 2);
            for (TpchQuery q : TpchQueries.all()) {
                ResultTable answer = duckdb.query(q.sql());
                assertTrue(answer.rowCount() > 0, q.name() + " has rows at SF 0.01");
                // The checker resolves the ORDER BY names against the result columns, or throws.
                assertTrue(AnswerChecker.check(answer, answer, q.orderBy()).ok(), q.name());
            }
        }
    }

    @Test
    void orderByParsingSkipsSubqueriesLiteralsAndComments() {
        assertEquals(List.of("b"), TpchQueries.orderBy("select a, b from (select * from t order by x) -- order by c\n"
                + "where s = 'order by d' order by b desc nulls last limit 5"));
        assertEquals(List.of(), TpchQueries.orderBy("select a from t where a in (select x from u order by x)"));
        assertThrows(IllegalArgumentException.class, () -> TpchQueries.orderBy("select a from t order by a + 1"));
    }
}
