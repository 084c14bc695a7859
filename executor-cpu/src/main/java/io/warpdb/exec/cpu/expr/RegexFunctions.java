package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.exec.cpu.expr.StringFunctionEvaluator.RowFunction;
import io.warpdb.exec.cpu.expr.StringMeasureEvaluator.RowMeasure;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * REGEXP_MATCHES and REGEXP_REPLACE with DuckDB's conventions on Java's regular expressions: a
 * match anywhere in the string counts, the replacement names groups {@code \1} .. {@code \9}
 * ({@code \\} is a backslash), and the options are 'g' (every match, else the first), 'i'
 * (ignore case) and 'c' (case-sensitive, the default). A bad pattern or option is SQLSTATE 2201B.
 * Each function keeps its last compiled pattern: patterns are constants almost always.
 */
final class RegexFunctions {
    private RegexFunctions() {
    }

    /** A pattern compiled from its text and flags. */
    private record Compiled(String source, int flags, Pattern pattern) {
    }

    /** The last pattern one function compiled; evaluators may run on several threads, so the record is swapped whole. */
    private static final class LastPattern {
        private volatile Compiled last;

        Pattern get(String source, int flags) {
            Compiled c = last;
            if (c == null || c.flags() != flags || !c.source().equals(source)) {
                try {
                    c = new Compiled(source, flags, Pattern.compile(source, flags));
                } catch (PatternSyntaxException e) {
                    throw new WarpException(SqlState.INVALID_REGULAR_EXPRESSION,
                            "invalid regular expression '" + source + "': " + e.getDescription());
                }
                last = c;
            }
            return c.pattern();
        }
    }

    /** REGEXP_MATCHES(s, pattern). */
    static RowMeasure matches() {
        LastPattern patterns = new LastPattern();
        return (args, row) -> patterns.get(args[1].string(row), 0).matcher(args[0].string(row)).find() ? 1 : 0;
    }

    /** REGEXP_REPLACE(s, pattern, replacement, options). */
    static RowFunction replace() {
        LastPattern patterns = new LastPattern();
        return (args, row) -> {
            String options = args[3].string(row);
            boolean global = false;
            int flags = 0;
            for (char o : options.toCharArray()) {
                switch (o) {
                    case 'g' -> global = true;
                    case 'i' -> flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
                    case 'c' -> flags &= ~(Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
                    default -> throw new WarpException(SqlState.INVALID_REGULAR_EXPRESSION,
                            "unknown regexp_replace option '" + o + "' (g, i and c are known)");
                }
            }
            Matcher m = patterns.get(args[1].string(row), flags).matcher(args[0].string(row));
            String replacement = javaReplacement(args[2].string(row));
            return global ? m.replaceAll(replacement) : m.replaceFirst(replacement);
        };
    }

    /** A replacement with {@code \N} group references written for {@link Matcher}: {@code $N}, other text quoted. */
    private static String javaReplacement(String r) {
        StringBuilder out = new StringBuilder(r.length() + 8);
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == '\\' && i + 1 < r.length() && Character.isDigit(r.charAt(i + 1))) {
                out.append('$').append(r.charAt(++i));
            } else if (c == '\\' && i + 1 < r.length() && r.charAt(i + 1) == '\\') {
                out.append("\\\\");
                i++;
            } else if (c == '\\' || c == '$') {
                out.append('\\').append(c);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
