package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.fuzz.ast.Between;
import io.warpdb.fuzz.ast.Binary;
import io.warpdb.fuzz.ast.CaseWhen;
import io.warpdb.fuzz.ast.Dialect;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.InList;
import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Query;
import io.warpdb.fuzz.ast.SetOperation;
import io.warpdb.fuzz.ast.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryGeneratorTest {
    @Test
    void aCaseSeedRegeneratesTheSameDataAndQuery() {
        long caseSeed = Seeds.caseSeed(Seeds.schemaSeed(42, 3), 17);
        assertEquals(Seeds.schemaSeed(42, 3), Seeds.schemaSeedOf(caseSeed));
        assertEquals(Fuzzer.dataset(Seeds.schemaSeedOf(caseSeed)), Fuzzer.dataset(Seeds.schemaSeedOf(caseSeed)));
        Dataset data = Fuzzer.dataset(Seeds.schemaSeedOf(caseSeed));
        String first = new QueryGenerator(Seeds.random(caseSeed), data).query().render(Dialect.WARPDB);
        String again = new QueryGenerator(Seeds.random(caseSeed), data).query().render(Dialect.WARPDB);
        assertEquals(first, again);
    }

    /** Operands that must be comparable are of one type family, in thousands of generated queries. */
    @Test
    void generatedQueriesAreWellTyped() {
        List<String> problems = new ArrayList<>();
        for (long schema = 0; schema < 40; schema++) {
            Dataset data = Fuzzer.dataset(Seeds.schemaSeed(1, schema));
            for (int q = 0; q < 50; q++) {
                QueryGenerator g = new QueryGenerator(Seeds.random(Seeds.caseSeed(Seeds.schemaSeed(1, schema), q)), data);
                check(g.query(), problems);
            }
        }
        assertEquals(List.of(), problems.stream().limit(5).toList());
    }

    private static void check(Node n, List<String> problems) {
        if (n instanceof Binary b && (b.op().isComparison() || b.op() == Binary.Op.AND || b.op() == Binary.Op.OR)) {
            same(b, b.left().type(), b.right().type(), problems);
        }
        if (n instanceof InList in) {
            in.values().forEach(v -> same(in, in.arg().type(), v.type(), problems));
        }
        if (n instanceof Between b) {
            same(b, b.arg().type(), b.low().type(), problems);
            same(b, b.arg().type(), b.high().type(), problems);
        }
        if (n instanceof CaseWhen c) {
            c.thens().forEach(t -> same(c, c.type(), t.type(), problems));
            c.whens().forEach(w -> same(c, c.operand() != null ? c.operand().type() : SqlType.BOOLEAN, w.type(), problems));
        }
        if (n instanceof SetOperation s) {
            List<SqlType> l = s.left().columnTypes();
            List<SqlType> r = s.right().columnTypes();
            assertEquals(l.size(), r.size());
            for (int i = 0; i < l.size(); i++) {
                same(s, l.get(i), r.get(i), problems);
            }
        }
        n.children().forEach(c -> check(c, problems));
    }

    private static void same(Node where, SqlType a, SqlType b, List<String> problems) {
        if (a.family() != b.family()) {
            String sql = where instanceof Expr e ? e.render(Dialect.WARPDB) : ((Query) where).render(Dialect.WARPDB);
            problems.add(a + " vs " + b + " in " + sql);
        }
    }

    @Test
    void queriesUseTheWholeLanguage() {
        StringBuilder all = new StringBuilder();
        for (long schema = 0; schema < 20; schema++) {
            Dataset data = Fuzzer.dataset(Seeds.schemaSeed(2, schema));
            for (int q = 0; q < 50; q++) {
                all.append(new QueryGenerator(Seeds.random(Seeds.caseSeed(Seeds.schemaSeed(2, schema), q)), data).query()
                        .render(Dialect.WARPDB)).append('\n');
            }
        }
        for (String feature : List.of("INNER JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN", ", t", "UNION", "INTERSECT",
                "EXCEPT", "EXISTS", " IN (SELECT", "WITH ", "GROUP BY", "HAVING", "DISTINCT", "FILTER (WHERE", "LIMIT", "OFFSET",
                "CASE", "COALESCE(", "NULLIF(", "CAST(", " LIKE ", " BETWEEN ", "SUBSTRING(", "TRIM(", "EXTRACT(", "INTERVAL",
                "IS DISTINCT FROM", "COUNT(", "SUM(", "AVG(", "MIN(", "MAX(", " / ", " % ")) {
            assertTrue(all.indexOf(feature) >= 0, "no generated query has " + feature);
        }
    }
}
