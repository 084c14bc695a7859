package io.warpdb.tpch;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement's top-level ORDER BY and LIMIT, read from its text: the last ORDER BY outside
 * parentheses, string literals and line comments. {@code items} are its sort expressions as
 * written, without ASC/DESC and NULLS FIRST/LAST; {@code limit} is the LIMIT that follows it.
 */
public record OrderByClause(List<String> items, OptionalLong limit) {
    private static final Pattern ORDER_BY = Pattern.compile("(?i)\\border\\s+by\\b");
    private static final Pattern LIMIT = Pattern.compile("(?i)\\blimit\\s+(\\d+)");
    private static final Pattern DIRECTION = Pattern.compile("(?i)\\s+(asc|desc)(\\s+nulls\\s+(first|last))?$|\\s+nulls\\s+(first|last)$");

    /** No ORDER BY. */
    public static final OrderByClause NONE = new OrderByClause(List.of(), OptionalLong.empty());

    public OrderByClause {
        items = List.copyOf(items);
    }

    /** The statement's top-level ORDER BY, or {@link #NONE}. */
    public static OrderByClause of(String sql) {
        String text = blankLiteralsAndComments(sql);
        int clause = -1;
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (depth == 0 && ORDER_BY.matcher(text).region(i, text.length()).lookingAt()
                    && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
                clause = i;
            }
        }
        if (clause < 0) {
            return NONE;
        }
        Matcher by = ORDER_BY.matcher(text).region(clause, text.length());
        by.lookingAt();
        Matcher limit = LIMIT.matcher(text).region(by.end(), text.length());
        boolean limited = limit.find();
        String items = text.substring(by.end(), limited ? limit.start() : text.length()).replaceFirst(";\\s*$", "");
        List<String> parsed = new ArrayList<>();
        for (String item : splitTopLevel(items)) {
            parsed.add(DIRECTION.matcher(item.strip()).replaceFirst(""));
        }
        return new OrderByClause(parsed, limited ? OptionalLong.of(Long.parseLong(limit.group(1))) : OptionalLong.empty());
    }

    /** The items of a comma-separated list, split only at commas outside parentheses. */
    private static List<String> splitTopLevel(String list) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char ch = list.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                items.add(list.substring(start, i));
                start = i + 1;
            }
        }
        items.add(list.substring(start));
        return items;
    }

    /** The text with the inside of '...' literals and -- comments replaced by spaces, offsets kept. */
    static String blankLiteralsAndComments(String sql) {
        StringBuilder s = new StringBuilder(sql);
        boolean literal = false;
        boolean comment = false;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (comment) {
                comment = ch != '\n';
                s.setCharAt(i, ' ');
            } else if (literal) {
                literal = ch != '\'';
                s.setCharAt(i, ' ');
            } else if (ch == '\'') {
                literal = true;
                s.setCharAt(i, ' ');
            } else if (ch == '-' && i + 1 < s.length() && s.charAt(i + 1) == '-') {
                comment = true;
                s.setCharAt(i, ' ');
            }
        }
        return s.toString();
    }
}
