package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every function JDBC metadata lists runs. */
class SqlFunctionsTest {
    @Test
    void everyListedFunctionRuns() {
        try (Database db = Database.inMemory("functions"); Session session = db.newSession()) {
            for (SqlFunctions.Function f : SqlFunctions.ALL) {
                try (StatementResult r = session.execute("SELECT " + f.example(), List.of())) {
                    Batch b = r.batches().next();
                    try (b) {
                        assertEquals(1, b.rowCount(), f.name());
                    }
                }
            }
        }
        List<String> names = SqlFunctions.ALL.stream().map(SqlFunctions.Function::name).toList();
        assertEquals(names.stream().sorted().toList(), names, "listed by name, as JDBC orders getFunctions");
        assertTrue(names.containsAll(List.of("COUNT", "SUM", "AVG", "MIN", "MAX")));
    }
}
