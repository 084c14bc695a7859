package io.warpdb.exec.gpu.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.expr.EntryEvaluator.EntryValues;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;

/** Per-entry values come from the host evaluator once per dictionary and expression (no GPU needed). */
class HostEntryEvaluatorTest {
    @Test
    void valuesAreComputedOncePerDictionaryAndExpression() {
        try (RootAllocator allocator = new RootAllocator()) {
            // No executor registered: the host evaluator is found on the class path, not by name.
            ExecContext context = new ExecContext(allocator);
            StringDictionary phones = StringDictionary.ofValues(new String[] {"13-555", "17-000", "13-999", "99-1"});
            Expr entry = new ColumnRef(0, DataType.VARCHAR);
            Expr prefix = Call.of(Op.SUBSTRING, DataType.VARCHAR, entry, Literal.ofLong(1, DataType.INTEGER),
                    Literal.ofLong(2, DataType.INTEGER));
            Expr is13 = Call.of(Op.EQ, DataType.BOOLEAN, prefix, new Literal("13", DataType.VARCHAR));

            EntryValues first = new HostEntryEvaluator(context).evaluate(is13, DataType.VARCHAR, phones);
            assertArrayEquals(new long[] {1, 0, 1, 0}, first.values());
            // Another query (another evaluator) over the same dictionary: the same values, not recomputed.
            Expr sameAgain = Call.of(Op.EQ, DataType.BOOLEAN, Call.of(Op.SUBSTRING, DataType.VARCHAR, new ColumnRef(0, DataType.VARCHAR),
                    Literal.ofLong(1, DataType.INTEGER), Literal.ofLong(2, DataType.INTEGER)), new Literal("13", DataType.VARCHAR));
            assertSame(first, new HostEntryEvaluator(context).evaluate(sameAgain, DataType.VARCHAR, phones));
            // An equal dictionary that is another object is evaluated on its own.
            StringDictionary copy = StringDictionary.ofValues(new String[] {"13-555", "17-000", "13-999", "99-1"});
            EntryValues other = new HostEntryEvaluator(context).evaluate(is13, DataType.VARCHAR, copy);
            assertNotSame(first, other);
            assertArrayEquals(first.values(), other.values());
            EntryValues prefixes = new HostEntryEvaluator(context).evaluate(prefix, DataType.VARCHAR, phones);
            assertEquals("13", prefixes.dictionary().get((int) prefixes.values()[2]));
        }
    }

    /**
     * A dictionary cut into pieces evaluated at once gives what one piece gives: booleans, strings
     * (in one dictionary), and the errors of failing entries only (a CAST of text that is no number).
     */
    @Test
    void piecesEvaluateAsTheWholeDictionary() {
        try (RootAllocator allocator = new RootAllocator()) {
            HostEntryEvaluator entries = new HostEntryEvaluator(new ExecContext(allocator));
            String[] texts = new String[1000];
            for (int i = 0; i < texts.length; i++) {
                texts[i] = i % 97 == 5 ? "x" + i : Integer.toString(i % 300);
            }
            StringDictionary dictionary = StringDictionary.ofValues(texts);
            Expr entry = new ColumnRef(0, DataType.VARCHAR);
            Expr like = Call.of(Op.LIKE, DataType.BOOLEAN, entry, new Literal("%7%", DataType.VARCHAR));
            Expr marked = Call.of(Op.CONCAT, DataType.VARCHAR, entry, new Literal("!", DataType.VARCHAR));
            Expr number = Call.of(Op.CAST, DataType.INTEGER, entry);
            for (Expr e : List.of(like, marked, number)) {
                EntryValues whole = entries.evaluateInPieces(e, DataType.VARCHAR, dictionary, 1);
                EntryValues pieces = entries.evaluateInPieces(e, DataType.VARCHAR, dictionary, 7);
                assertArrayEquals(whole.nulls(), pieces.nulls(), e.toString());
                for (int i = 0; i < texts.length; i++) {
                    assertEquals(whole.fails(i), pieces.fails(i), e + " entry " + i);
                    if (e == marked) {
                        assertEquals(whole.dictionary().get((int) whole.values()[i]), pieces.dictionary().get((int) pieces.values()[i]));
                    } else if (!whole.nulls()[i]) {
                        assertEquals(whole.values()[i], pieces.values()[i], e + " entry " + i);
                    }
                }
            }
            assertEquals(true, entries.evaluateInPieces(number, DataType.VARCHAR, dictionary, 7).fails(5));
            assertEquals(1L, entries.evaluateInPieces(like, DataType.VARCHAR, dictionary, 7).values()[17]);
        }
    }

    /** CONCAT over combinations of two columns' codes, as the CPU computes it (a NULL operand makes it NULL). */
    @Test
    void combinationsOfSeveralColumnsAreEvaluatedTogether() {
        try (RootAllocator allocator = new RootAllocator()) {
            ExecContext context = new ExecContext(allocator);
            StringDictionary last = StringDictionary.ofValues(new String[] {"Berg", "Ash"});
            StringDictionary first = StringDictionary.ofValues(new String[] {"Ann", "", "Cy"});
            Expr q84 = Call.of(Op.CONCAT, DataType.VARCHAR, Call.of(Op.CONCAT, DataType.VARCHAR, new ColumnRef(0, DataType.VARCHAR),
                    new Literal(", ", DataType.VARCHAR)), new ColumnRef(1, DataType.VARCHAR));
            Schema schema = Schema.of(new Field("last", DataType.VARCHAR), new Field("first", DataType.VARCHAR));
            EntryValues values;
            try (Batch combinations = new Batch(schema, List.of(codes(allocator, 0, 1, 1, 0), codes(allocator, 0, 2, 1, null)),
                    List.of(last, first), 4)) {
                values = new HostEntryEvaluator(context).evaluateRows(q84, combinations);
            }
            List<String> strings = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                strings.add(values.nulls()[i] ? null : values.dictionary().get((int) values.values()[i]));
            }
            assertEquals(java.util.Arrays.asList("Berg, Ann", "Ash, Cy", "Ash, ", null), strings);
        }
    }

    /**
     * A constant expression (TPC-H q01's {@code DATE '1998-12-01' - INTERVAL '90' DAY}) evaluated
     * once, as the CPU does; NULL and failing ones give null (their rows raise or compare alike).
     */
    @Test
    void constantsAreEvaluatedOnceWithTheCpusSemantics() {
        try (RootAllocator allocator = new RootAllocator()) {
            HostEntryEvaluator entries = new HostEntryEvaluator(new ExecContext(allocator));
            Literal december = Literal.ofLong(10561, DataType.DATE);
            assertEquals(10471L, entries.constantValue(Call.of(Op.DATE_ADD_DAYS, DataType.DATE, december,
                    Call.of(Op.NEGATE, DataType.INTEGER, Literal.ofLong(90, DataType.INTEGER)))));
            assertEquals(5075L, entries.constantValue(Call.of(Op.MULTIPLY, DataType.decimal(10, 2), Literal.ofLong(5, DataType.INTEGER),
                    Literal.ofLong(1015, DataType.decimal(5, 2)))));
            assertEquals(0.5, Double.longBitsToDouble(entries.constantValue(Call.of(Op.DIVIDE, DataType.DOUBLE,
                    new Literal(1.0, DataType.DOUBLE), new Literal(2.0, DataType.DOUBLE)))));
            assertEquals(null, entries.constantValue(Call.of(Op.DATE_ADD_DAYS, DataType.DATE, Literal.ofNull(DataType.DATE),
                    Literal.ofLong(1, DataType.INTEGER))));
            assertEquals(null, entries.constantValue(Call.of(Op.DIVIDE, DataType.BIGINT, Literal.ofLong(1, DataType.BIGINT),
                    Literal.ofLong(0, DataType.BIGINT))));
        }
    }

    /** A column of string codes (null: a NULL row). */
    private static FieldVector codes(RootAllocator allocator, Integer... codes) {
        IntVector v = new IntVector("codes", allocator);
        v.allocateNew(codes.length);
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] == null) {
                v.setNull(i);
            } else {
                v.set(i, codes[i]);
            }
        }
        v.setValueCount(codes.length);
        return v;
    }
}
