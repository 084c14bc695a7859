package io.warpdb.exec.cpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import io.warpdb.exec.cpu.column.ArrowColumns;
import io.warpdb.exec.cpu.column.Column;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** String functions and predicates, run over unique and over non-unique dictionaries. */
class StringFunctionTest extends ExecTestBase {
    private static TestTable names(boolean nonUnique) {
        TestTable t = TestTable.of("t", "s", VARCHAR, "n", INT)
                .batch(row("Apple", 1), row("banana", 2), row(" apple ", 3))
                .batch()
                .batch(row(null, 4), row("Cherry pie", 5), row("apple", 6));
        return nonUnique ? t.nonUniqueDictionaries() : t;
    }

    private static final Expr S = col(0, VARCHAR);

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void comparisonsWithConstantsCompareValues(boolean nonUnique) {
        TestTable t = names(nonUnique);
        assertEquals(Arrays.asList(false, false, false, null, false, true), eval(t, call(Op.EQ, BOOL, S, str("apple"))));
        assertEquals(Arrays.asList(true, true, true, null, true, false), eval(t, call(Op.NE, BOOL, S, str("apple"))));
        assertEquals(Arrays.asList(true, false, true, null, true, false), eval(t, call(Op.LT, BOOL, S, str("a"))));
        assertEquals(Arrays.asList(true, false, true, null, true, true), eval(t, call(Op.GE, BOOL, str("b"), S)));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void likeAndInRunOverTheDictionary(boolean nonUnique) {
        TestTable t = names(nonUnique);
        assertEquals(Arrays.asList(true, false, false, null, false, true), eval(t, call(Op.LIKE, BOOL, S, str("%pple"))));
        assertEquals(Arrays.asList(false, true, false, null, false, false), eval(t, call(Op.LIKE, BOOL, S, str("_an%a"))));
        assertEquals(Arrays.asList(false, false, false, null, true, false), eval(t, call(Op.LIKE, BOOL, S, str("%y p%"))));
        assertEquals(Arrays.asList(true, false, true, null, false, true),
                eval(t, call(Op.NOT, BOOL, call(Op.NOT, BOOL, call(Op.LIKE, BOOL, call(Op.TRIM, VARCHAR, S, str(" ")), str("_pple"))))));
        assertEquals(Arrays.asList(true, true, false, null, false, false), eval(t, call(Op.IN, BOOL, S, str("Apple"), str("banana"))));
        assertEquals(Arrays.asList(true, null, null, null, null, null), eval(t, call(Op.IN, BOOL, S, str("Apple"), nul(VARCHAR))));
        // SUBSTRING(s, 1, n) IN (...) tests prefixes (PrefixInEvaluator): a two-character value must start
        // the string, a shorter one must be all of it, a longer one matches nothing.
        Expr leading = call(Op.SUBSTRING, VARCHAR, S, lit(1), lit(2));
        assertEquals(Arrays.asList(true, false, false, null, true, true),
                eval(t, call(Op.IN, BOOL, leading, str("Ap"), str("Ch"), str("ap"), str("ban"))));
        assertEquals(Arrays.asList(null, true, null, null, null, null), eval(t, call(Op.IN, BOOL, leading, str("ba"), nul(VARCHAR))));
        TestTable shortOnes = TestTable.of("t", "s", VARCHAR).batch(row("x"), row("xy"), row(""), row("\u00e9t\u00e9"));
        assertEquals(Arrays.asList(true, false, true, false),
                eval(shortOnes, call(Op.IN, BOOL, call(Op.SUBSTRING, VARCHAR, col(0, VARCHAR), lit(1), lit(2)), str("x"), str(""))));
        assertEquals(Arrays.asList(false, false, false, true),
                eval(shortOnes, call(Op.IN, BOOL, call(Op.SUBSTRING, VARCHAR, col(0, VARCHAR), lit(1), lit(2)), str("\u00e9t"))));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void unaryFunctionsMapTheDictionary(boolean nonUnique) {
        TestTable t = names(nonUnique);
        assertEquals(Arrays.asList("APPLE", "BANANA", " APPLE ", null, "CHERRY PIE", "APPLE"), eval(t, call(Op.UPPER, VARCHAR, S)));
        assertEquals(Arrays.asList("apple", "banana", " apple ", null, "cherry pie", "apple"), eval(t, call(Op.LOWER, VARCHAR, S)));
        assertEquals(Arrays.asList("Apple", "banana", "apple", null, "Cherry pie", "apple"), eval(t, call(Op.TRIM, VARCHAR, S, str(" "))));
        assertEquals(Arrays.asList("Apple", "banana", "apple ", null, "Cherry pie", "apple"), eval(t, call(Op.LTRIM, VARCHAR, S, str(" "))));
        assertEquals(Arrays.asList("Apple", "banan", " apple", null, "Cherry pie", "apple"), eval(t, call(Op.RTRIM, VARCHAR, S, str(" a"))));
        assertEquals(Arrays.asList(5, 6, 7, null, 10, 5), eval(t, call(Op.CHAR_LENGTH, INT, S)));
        assertEquals(Arrays.asList("pp", "an", "ap", null, "he", "pp"), eval(t, call(Op.SUBSTRING, VARCHAR, S, lit(2), lit(2))));
        assertEquals(Arrays.asList("Apple!", "banana!", " apple !", null, "Cherry pie!", "apple!"),
                eval(t, call(Op.CONCAT, VARCHAR, S, str("!"))));
        // The mapped dictionary repeats values ("apple" from "Apple" and "apple"): predicates on it still compare values.
        Expr lowerIsApple = call(Op.EQ, BOOL, call(Op.LOWER, VARCHAR, call(Op.TRIM, VARCHAR, S, str(" "))), str("apple"));
        assertEquals(Arrays.asList(true, false, true, null, false, true), eval(t, lowerIsApple));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void functionsOfTwoColumnsWorkRowByRow(boolean nonUnique) {
        TestTable t = names(nonUnique);
        Expr n = col(1, INT);
        assertEquals(Arrays.asList("Apple", "anana", "pple ", null, "ry pie", ""), eval(t, call(Op.SUBSTRING, VARCHAR, S, n)));
        assertEquals(Arrays.asList("A", "ba", " ap", null, "Cherr", "apple"), eval(t, call(Op.SUBSTRING, VARCHAR, S, lit(1), n)));
        assertEquals(Arrays.asList("Apple1", "banana2", " apple 3", null, "Cherry pie5", "apple6"),
                eval(t, call(Op.CONCAT, VARCHAR, S, call(Op.CAST, VARCHAR, n))));
        // Column-to-column comparison by value, across the two columns' dictionaries.
        TestTable pairs = TestTable.of("t", "a", VARCHAR, "b", VARCHAR)
                .batch(row("x", "x"), row("x", "y"), row("b", "a"), row(null, "a"));
        pairs = nonUnique ? pairs.nonUniqueDictionaries() : pairs;
        assertEquals(Arrays.asList(true, false, false, null), eval(pairs, call(Op.EQ, BOOL, col(0, VARCHAR), col(1, VARCHAR))));
        assertEquals(Arrays.asList(false, true, false, null), eval(pairs, call(Op.LT, BOOL, col(0, VARCHAR), col(1, VARCHAR))));
        assertEquals(Arrays.asList(false, true, true, true),
                eval(pairs, call(Op.IS_DISTINCT_FROM, BOOL, col(0, VARCHAR), col(1, VARCHAR))));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void caseOverStringsBuildsAFreshDictionary(boolean nonUnique) {
        TestTable t = names(nonUnique);
        Expr c = call(Op.CASE, VARCHAR, call(Op.LIKE, BOOL, S, str("%pp%")), call(Op.UPPER, VARCHAR, S), S);
        assertEquals(Arrays.asList("APPLE", "banana", " APPLE ", null, "Cherry pie", "APPLE"), eval(t, c));
    }

    @Test
    void substringFollowsSqlPositions() {
        assertEquals("he", evalConstant(call(Op.SUBSTRING, VARCHAR, str("hello"), lit(0), lit(3))));
        assertEquals("", evalConstant(call(Op.SUBSTRING, VARCHAR, str("hello"), lit(9))));
        assertEquals("hello", evalConstant(call(Op.SUBSTRING, VARCHAR, str("hello"), lit(-5), lit(100))));
        assertEquals("é😀", evalConstant(call(Op.SUBSTRING, VARCHAR, str("aé😀b"), lit(2), lit(2))));
        assertEquals(4, evalConstant(call(Op.CHAR_LENGTH, INT, str("aé😀b"))));
        evalConstantFailing(call(Op.SUBSTRING, VARCHAR, str("hello"), lit(1), lit(-1)), SqlState.INVALID_PARAMETER_VALUE);
    }

    @Test
    void likeEscapesAndSpecialCharacters() {
        assertEquals(true, evalConstant(call(Op.LIKE, BOOL, str("50%"), str("50!%"), str("!"))));
        assertEquals(false, evalConstant(call(Op.LIKE, BOOL, str("500"), str("50!%"), str("!"))));
        assertEquals(true, evalConstant(call(Op.LIKE, BOOL, str("a.b*c"), str("a.b*_"))));
        assertEquals(false, evalConstant(call(Op.LIKE, BOOL, str("axb"), str("a.b"))));
        assertEquals(true, evalConstant(call(Op.LIKE, BOOL, str("line\nbreak"), str("line%"))));
        TestTable t = TestTable.of("t", "s", VARCHAR, "p", VARCHAR).batch(row("abc", "a%"), row("abc", "b%"), row("abc", null));
        assertEquals(Arrays.asList(true, false, null), eval(t, call(Op.LIKE, BOOL, col(0, VARCHAR), col(1, VARCHAR))));
    }

    @Test
    void unaryStringFunctionKeepsCodesOverAMappedNonUniqueDictionary() {
        TestTable t = TestTable.of("t", "s", VARCHAR).batch(row("a"), row("A"), row("b"));
        try (Batch in = t.scan(List.of(0), allocator).next()) {
            Evaluator upper = ExprCompiler.compile(call(Op.UPPER, VARCHAR, S));
            Column input = ArrowColumns.read(in, 0);
            Column result = upper.evaluate(new BatchInput(in));
            assertEquals(Arrays.toString(input.longs()), Arrays.toString(result.longs()));
            StringDictionary mapped = result.dictionary();
            assertFalse(mapped.isUnique());
            assertEquals(List.of("A", "A", "B"), List.of(mapped.get(0), mapped.get(1), mapped.get(2)));
            assertSame(mapped, upper.evaluate(new BatchInput(in)).dictionary(), "mapped once per input dictionary");
            assertNotSame(mapped, ExprCompiler.compile(call(Op.CONCAT, VARCHAR, S, S)).evaluate(new BatchInput(in)).dictionary());
        }
    }

    @Test
    void charValuesCarryNoTrailingSpaces() {
        DataType char5 = DataType.chars(5);
        assertEquals("ab", evalConstant(call(Op.CAST, char5, str("ab   "))));
        assertEquals("  ab", evalConstant(call(Op.CAST, char5, str("  ab      "))));
        evalConstantFailing(call(Op.CAST, char5, str("abcdef")), SqlState.STRING_DATA_RIGHT_TRUNCATION);
        evalConstantFailing(call(Op.CAST, DataType.varchar(3), str("abcd")), SqlState.STRING_DATA_RIGHT_TRUNCATION);
        assertEquals("abcd", evalConstant(call(Op.CAST, DataType.varchar(4), str("abcd"))));
    }
}
