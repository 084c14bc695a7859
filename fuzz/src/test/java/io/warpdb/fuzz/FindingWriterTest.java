package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.fuzz.QueryResult.ResultColumn;
import io.warpdb.fuzz.ast.ColumnRef;
import io.warpdb.fuzz.ast.Select;
import io.warpdb.fuzz.ast.SelectItem;
import io.warpdb.fuzz.ast.SqlType;
import io.warpdb.fuzz.ast.TableRef;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FindingWriterTest {
    private static final Select QUERY = Select.of(List.of(new SelectItem(new ColumnRef("a1", "c0", SqlType.BIGINT), "x0"),
            new SelectItem(new ColumnRef("a1", "c1", SqlType.decimal(10, 2)), "x1"),
            new SelectItem(new ColumnRef("a1", "c2", SqlType.charOf(4)), "x2")), new TableRef("t0", "a1"));

    @Test
    void expectedRowsAreDuckDbsInWarpDbsTypes() {
        Outcome warp = Outcome.of(new QueryResult(List.of(new ResultColumn("X0", Types.BIGINT, "BIGINT", 0),
                new ResultColumn("X1", Types.DECIMAL, "DECIMAL", 2), new ResultColumn("X2", Types.CHAR, "CHAR", 0)), List.of()));
        Outcome duck = Outcome.of(new QueryResult(List.of(new ResultColumn("x0", Types.OTHER, "HUGEINT", 0),
                new ResultColumn("x1", Types.DECIMAL, "DECIMAL(38,1)", 1), new ResultColumn("x2", Types.VARCHAR, "VARCHAR", 0)),
                List.of(Arrays.asList(BigInteger.valueOf(5), new BigDecimal("1.5"), "ab"), Arrays.asList(null, null, ""))));
        assertEquals(new TestFile.QueryRecord("SELECT a1.c0 AS x0, a1.c1 AS x1, a1.c2 AS x2 FROM t0 AS a1", "IDT", false,
                List.of(List.of("5", "1.50", "ab"), List.of("NULL", "NULL", "(empty)"))), FindingWriter.record(QUERY, warp, duck));
    }

    @Test
    void withoutWarpDbsAnswerTheGeneratorsTypesSayTheLetters() {
        Outcome warp = Outcome.failed(new QueryFailure(QueryFailure.Kind.RAW, "XX000", "internal error", "java.sql.SQLException"));
        Outcome duck = Outcome.of(new QueryResult(List.of(new ResultColumn("x0", Types.BIGINT, "BIGINT", 0),
                new ResultColumn("x1", Types.DECIMAL, "DECIMAL(10,2)", 2), new ResultColumn("x2", Types.VARCHAR, "VARCHAR", 0)),
                List.of(List.of(1L, new BigDecimal("2.00"), "x"))));
        assertEquals("IDT", ((TestFile.QueryRecord) FindingWriter.record(QUERY, warp, duck)).typeLetters());
    }

    @Test
    void aDataErrorOfDuckDbBecomesAnErrorRecordWithWarpDbsSqlState() {
        Outcome duck = Outcome.failed(new QueryFailure(QueryFailure.Kind.DATA, null,
                "Invalid Input Error: Division by zero in expression", "java.sql.SQLException"));
        assertEquals(new TestFile.ErrorRecord("SELECT a1.c0 AS x0, a1.c1 AS x1, a1.c2 AS x2 FROM t0 AS a1", "22012"),
                FindingWriter.record(QUERY, duck, duck));
    }
}
