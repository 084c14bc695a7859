package io.warpdb.jdbc;

import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A {@link java.sql.DatabaseMetaData} search pattern: {@code %} matches any run of characters,
 * {@code _} any one character, {@code \} escapes the next character, and a null pattern
 * matches everything. Matching ignores case because WarpDB's names do.
 */
final class SearchPattern {
    private SearchPattern() {
    }

    static Predicate<String> of(String pattern) {
        if (pattern == null) {
            return name -> true;
        }
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        Pattern compiled = Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
        return name -> compiled.matcher(name).matches();
    }

    /** Whether a catalog argument selects {@code catalog}: null means any, "" means none. */
    static boolean catalogMatches(String argument, String catalog) {
        return argument == null || argument.equalsIgnoreCase(catalog);
    }
}
