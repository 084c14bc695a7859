package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SearchPatternTest {
    @Test
    void wildcardsEscapesAndCase() {
        assertTrue(SearchPattern.of(null).test("anything"));
        assertTrue(SearchPattern.of("%").test(""));
        assertTrue(SearchPattern.of("ORD%").test("orders"));
        assertTrue(SearchPattern.of("order_lines").test("orderXlines"));
        assertFalse(SearchPattern.of("order\\_lines").test("orderXlines"));
        assertTrue(SearchPattern.of("order\\_lines").test("ORDER_LINES"));
        assertFalse(SearchPattern.of("ord").test("orders"));
        assertTrue(SearchPattern.of("a.b(c)*").test("A.B(C)*"), "regex characters are literal");
        assertFalse(SearchPattern.of("a.b").test("axb"));
    }

    @Test
    void catalogArguments() {
        assertTrue(SearchPattern.catalogMatches(null, "warpdb"));
        assertTrue(SearchPattern.catalogMatches("WARPDB", "warpdb"));
        assertFalse(SearchPattern.catalogMatches("", "warpdb"), "the empty catalog selects objects without one");
        assertFalse(SearchPattern.catalogMatches("other", "warpdb"));
    }
}
