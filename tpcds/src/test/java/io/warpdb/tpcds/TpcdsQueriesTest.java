package io.warpdb.tpcds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.tpch.OrderByClause;
import java.util.List;
import org.junit.jupiter.api.Test;

class TpcdsQueriesTest {
    @Test
    void allNinetyNineQueriesAreReadWithoutTheirSemicolon() {
        assertEquals(99, TpcdsQueries.all().size());
        TpcdsQueries.all().forEach(q -> assertFalse(q.sql().endsWith(";"), q.name()));
        assertEquals(List.of("q42"), TpcdsQueries.select(List.of(42)).stream().map(TpcdsQuery::name).toList());
    }

    @Test
    void sortKeysAreTheResultColumnsTheOrderByNamesUpToTheFirstExpression() {
        // q36: ORDER BY lochierarchy DESC NULLS FIRST, CASE WHEN ... END NULLS FIRST, rank_within_parent ... LIMIT 100
        TpcdsQuery q36 = TpcdsQueries.get(36);
        assertEquals(100, q36.orderBy().limit().getAsLong());
        assertArrayEquals(new int[] {3}, q36.sortKeys(List.of("gross_margin", "i_category", "i_class", "lochierarchy", "rank_within_parent")));
        // q04 orders by qualified names, q62 by positions.
        assertArrayEquals(new int[] {0, 1, 2, 3}, TpcdsQueries.get(4).sortKeys(
                List.of("customer_id", "customer_first_name", "customer_last_name", "customer_preferred_cust_flag")));
        assertArrayEquals(new int[] {0, 1, 2}, TpcdsQueries.get(62).sortKeys(List.of("a", "b", "c", "d")));
        // Two result columns of one name: which is meant is not known, so the keys stop there.
        TpcdsQuery twoOfAName = new TpcdsQuery(0, "", OrderByClause.of("select 1 order by x.a, b"), List.of());
        assertArrayEquals(new int[] {}, twoOfAName.sortKeys(List.of("a", "a", "b")));
    }

    @Test
    void tablesReadAreNamedAsWholeWords() {
        List<String> tables = TpcdsQueries.get(96).tables().stream().map(TpcdsSchema.Table::name).toList();
        assertEquals(List.of("household_demographics", "store", "store_sales", "time_dim"), tables);
        assertTrue(TpcdsQueries.tablesRead(List.of(TpcdsQueries.get(96))).contains(TpcdsSchema.table("store")));
    }
}
