package io.warpdb.exec.cpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** LIKE matching, the segment search and the regular expression alike, against a textbook matcher. */
class LikePatternTest {
    @Test
    void tpchPatterns() {
        assertTrue(LikePattern.compile("%special%requests%", null).matches("carefully special packages; requests"));
        assertFalse(LikePattern.compile("%special%requests%", null).matches("requests are special"));
        assertTrue(LikePattern.compile("PROMO%", null).matches("PROMO BRUSHED TIN"));
        assertTrue(LikePattern.compile("%BRASS", null).matches("LARGE BRASS"));
        assertFalse(LikePattern.compile("%BRASS", null).matches("BRASS LARGE"));
        assertTrue(LikePattern.compile("forest%", null).matches("forest"));
        assertFalse(LikePattern.compile("ab%ba", null).matches("aba"), "the anchored ends must not overlap");
        assertTrue(LikePattern.compile("100!%%", "!").matches("100% sure"), "an escaped % is a literal");
        assertFalse(LikePattern.compile("100!%%", "!").matches("1000"));
        assertTrue(LikePattern.compile("", null).matches(""));
        assertFalse(LikePattern.compile("", null).matches("a"));
        assertTrue(LikePattern.compile("%", null).matches(""));
    }

    @Test
    void randomPatternsMatchAsTheTextbookMatcherDoes() {
        Random random = new Random(2026);
        String patternChars = "ab%%_";
        for (int trial = 0; trial < 20_000; trial++) {
            String pattern = randomString(random, patternChars, 6);
            String text = randomString(random, "ab", 8);
            assertEquals(reference(pattern, text), LikePattern.compile(pattern, null).matches(text), pattern + " LIKE " + text);
        }
    }

    private static String randomString(Random random, String alphabet, int maxLength) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(maxLength + 1);
        for (int i = 0; i < length; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    /** Dynamic programming over (pattern prefix, text prefix): the definition of LIKE without an escape. */
    private static boolean reference(String pattern, String text) {
        boolean[][] match = new boolean[pattern.length() + 1][text.length() + 1];
        match[0][0] = true;
        for (int p = 1; p <= pattern.length(); p++) {
            char c = pattern.charAt(p - 1);
            for (int t = 0; t <= text.length(); t++) {
                if (c == '%') {
                    match[p][t] = match[p - 1][t] || t > 0 && match[p][t - 1];
                } else {
                    match[p][t] = t > 0 && match[p - 1][t - 1] && (c == '_' || c == text.charAt(t - 1));
                }
            }
        }
        return match[pattern.length()][text.length()];
    }
}
