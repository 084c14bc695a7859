package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.regex.Pattern;

/** A SQL LIKE pattern (% any sequence, _ any one character, optional escape character) as a regular expression. */
final class LikePattern {
    private final Pattern regex;

    private LikePattern(Pattern regex) {
        this.regex = regex;
    }

    /** {@code escape} is null or a one-character string. */
    static LikePattern compile(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "LIKE escape must be a single character: '" + escape + "'");
        }
        StringBuilder out = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape.charAt(0)) {
                if (++i == pattern.length()) {
                    throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                            "LIKE pattern ends with the escape character: '" + pattern + "'");
                }
                literal.append(pattern.charAt(i));
            } else if (c == '%' || c == '_') {
                flushLiteral(out, literal);
                out.append(c == '%' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        flushLiteral(out, literal);
        return new LikePattern(Pattern.compile(out.toString(), Pattern.DOTALL));
    }

    private static void flushLiteral(StringBuilder out, StringBuilder literal) {
        if (literal.length() > 0) {
            out.append(Pattern.quote(literal.toString()));
            literal.setLength(0);
        }
    }

    boolean matches(String s) {
        return regex.matcher(s).matches();
    }
}
