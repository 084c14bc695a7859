package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A SQL LIKE pattern (% any sequence, _ any one character, optional escape character). Patterns
 * without _ (nearly all: 'PROMO%', '%BRASS', '%special%requests%') match by finding their literal
 * segments in order with indexOf, which is several times faster than a backtracking regular
 * expression on long strings; patterns with _ become a regular expression.
 */
final class LikePattern {
    /** The literal text between the %s: the first must start the string and the last end it (either may be empty). */
    private final String[] segments;
    private final Pattern regex;

    private LikePattern(String[] segments, Pattern regex) {
        this.segments = segments;
        this.regex = regex;
    }

    /** {@code escape} is null or a one-character string. */
    static LikePattern compile(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new WarpException(SqlState.INVALID_ESCAPE_CHARACTER, "invalid escape character: a LIKE escape is one character, not '" + escape + "'");
        }
        StringBuilder out = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        List<String> segments = new ArrayList<>();
        boolean anyOne = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape.charAt(0)) {
                if (++i == pattern.length()) {
                    throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                            "LIKE pattern ends with the escape character: '" + pattern + "'");
                }
                literal.append(pattern.charAt(i));
            } else if (c == '%' || c == '_') {
                anyOne |= c == '_';
                segments.add(literal.toString());
                flushLiteral(out, literal);
                out.append(c == '%' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        segments.add(literal.toString());
        flushLiteral(out, literal);
        return anyOne ? new LikePattern(null, Pattern.compile(out.toString(), Pattern.DOTALL))
                : new LikePattern(segments.toArray(String[]::new), null);
    }

    private static void flushLiteral(StringBuilder out, StringBuilder literal) {
        if (literal.length() > 0) {
            out.append(Pattern.quote(literal.toString()));
            literal.setLength(0);
        }
    }

    boolean matches(String s) {
        if (regex != null) {
            return regex.matcher(s).matches();
        }
        int last = segments.length - 1;
        if (last == 0) {
            return s.equals(segments[0]);
        }
        // The first segment is anchored at the start, the last at the end; the middle ones are taken
        // leftmost, which leaves the most room for those after them.
        int end = s.length() - segments[last].length();
        if (end < segments[0].length() || !s.startsWith(segments[0]) || !s.endsWith(segments[last])) {
            return false;
        }
        int position = segments[0].length();
        for (int i = 1; i < last; i++) {
            int found = s.indexOf(segments[i], position);
            if (found < 0 || found + segments[i].length() > end) {
                return false;
            }
            position = found + segments[i].length();
        }
        return true;
    }
}
