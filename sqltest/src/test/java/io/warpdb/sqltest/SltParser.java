package io.warpdb.sqltest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Parses the sqllogictest format as described in sqltest/README.md: records separated by blank
 * lines, {@code #} comment lines between records, {@code skipif}/{@code onlyif} prefixes,
 * {@code statement ok|error}, {@code query <types> [nosort|rowsort|valuesort] [label]},
 * {@code ----} before expected results (tab-separated values, one row per line) and {@code halt}.
 */
public final class SltParser {
    /** Letters allowed in a query's type string. */
    public static final String TYPE_LETTERS = "ITRDBAS?";

    private static final Pattern SQLSTATE = Pattern.compile("[0-9A-Z]{5}");
    private static final String SEPARATOR = "----";

    private final String file;
    private final List<String> lines;
    private int pos;

    private SltParser(String file, String text) {
        this.file = file;
        String[] split = text.split("\n", -1);
        List<String> l = new ArrayList<>(split.length);
        for (String s : split) {
            l.add(s.endsWith("\r") ? s.substring(0, s.length() - 1) : s);
        }
        this.lines = l;
    }

    /** Parses the text of a script named {@code file} (used in messages). */
    public static SltScript parse(String file, String text) {
        return new SltParser(file, text).parseAll();
    }

    /** Whether the text is an SQLSTATE: five characters of digits and upper-case letters. */
    public static boolean isSqlState(String s) {
        return SQLSTATE.matcher(s).matches();
    }

    private SltScript parseAll() {
        List<SltRecord> records = new ArrayList<>();
        while (pos < lines.size()) {
            String line = lines.get(pos);
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                pos++;
                continue;
            }
            SltRecord r = parseRecord();
            if (r != null) {
                records.add(r);
            }
        }
        return new SltScript(file, records);
    }

    private SltParseException error(int line, String msg) {
        return new SltParseException(file, line, msg);
    }

    private SltRecord parseRecord() {
        List<SltRecord.Condition> conditions = new ArrayList<>();
        while (true) {
            String[] tok = tokens(lines.get(pos));
            String kw = tok[0].toLowerCase(Locale.ROOT);
            if (kw.equals("skipif") || kw.equals("onlyif")) {
                if (tok.length != 2) {
                    throw error(pos + 1, kw + " needs exactly one name (an executor such as cpu, gpu, duckdb)");
                }
                conditions.add(new SltRecord.Condition(kw.equals("onlyif"), tok[1].toLowerCase(Locale.ROOT)));
                pos++;
                if (pos >= lines.size() || lines.get(pos).isBlank()) {
                    throw error(pos, kw + " must be followed by a record on the next line");
                }
                continue;
            }
            break;
        }
        int headerLine = pos + 1;
        String[] tok = tokens(lines.get(pos));
        pos++;
        String kw = tok[0].toLowerCase(Locale.ROOT);
        switch (kw) {
            case "statement":
                return parseStatement(headerLine, tok, conditions);
            case "query":
                return parseQuery(headerLine, tok, conditions);
            case "halt":
                if (tok.length != 1) {
                    throw error(headerLine, "halt takes no arguments");
                }
                return new SltRecord.Halt(headerLine, conditions);
            case "hash-threshold":
                // sqllogictest compatibility: results are never hashed here.
                if (!conditions.isEmpty()) {
                    throw error(headerLine, "skipif/onlyif cannot apply to hash-threshold");
                }
                return null;
            default:
                throw error(headerLine, "unknown record type '" + tok[0]
                        + "' (expected statement, query, halt, skipif, onlyif, or a # comment)");
        }
    }

    private SltRecord parseStatement(int headerLine, String[] tok, List<SltRecord.Condition> conditions) {
        if (tok.length != 2 || !(tok[1].equalsIgnoreCase("ok") || tok[1].equalsIgnoreCase("error"))) {
            throw error(headerLine, "expected 'statement ok' or 'statement error'");
        }
        boolean expectError = tok[1].equalsIgnoreCase("error");
        String sql = readSql(headerLine);
        String state = null;
        String message = null;
        if (pos < lines.size() && lines.get(pos).strip().equals(SEPARATOR)) {
            if (!expectError) {
                throw error(pos + 1, "'statement ok' takes no '----' section");
            }
            pos++;
            List<String> body = readUntilBlank();
            if (body.isEmpty()) {
                throw error(pos, "'----' of a statement error must be followed by an SQLSTATE and/or a message");
            }
            int from = 0;
            if (isSqlState(body.get(0).strip())) {
                state = body.get(0).strip();
                from = 1;
            }
            if (from < body.size()) {
                message = String.join("\n", body.subList(from, body.size())).strip();
                if (message.isEmpty()) {
                    message = null;
                }
            }
        }
        return new SltRecord.Statement(headerLine, conditions, expectError, sql, state, message);
    }

    private SltRecord parseQuery(int headerLine, String[] tok, List<SltRecord.Condition> conditions) {
        if (tok.length < 2 || tok.length > 4) {
            throw error(headerLine, "expected 'query <types> [nosort|rowsort|valuesort] [label]'");
        }
        String types = tok[1];
        for (char c : types.toCharArray()) {
            if (TYPE_LETTERS.indexOf(c) < 0) {
                throw error(headerLine, "unknown type letter '" + c + "' in '" + types + "' (allowed: " + TYPE_LETTERS + ")");
            }
        }
        SltRecord.SortMode sort = SltRecord.SortMode.NOSORT;
        String label = null;
        int i = 2;
        if (i < tok.length) {
            String s = tok[i].toLowerCase(Locale.ROOT);
            switch (s) {
                case "nosort" -> { sort = SltRecord.SortMode.NOSORT; i++; }
                case "rowsort" -> { sort = SltRecord.SortMode.ROWSORT; i++; }
                case "valuesort" -> { sort = SltRecord.SortMode.VALUESORT; i++; }
                default -> { }
            }
        }
        if (i < tok.length) {
            label = tok[i++];
        }
        if (i < tok.length) {
            throw error(headerLine, "unexpected '" + tok[i] + "' after the label");
        }
        String sql = readSql(headerLine);
        List<List<String>> expected = new ArrayList<>();
        if (pos < lines.size() && lines.get(pos).strip().equals(SEPARATOR)) {
            pos++;
            for (String row : readUntilBlank()) {
                expected.add(Arrays.asList(row.split("\t", -1)));
            }
        }
        return new SltRecord.Query(headerLine, conditions, types, sort, label, sql, expected);
    }

    /** SQL lines up to a blank line, {@code ----} or the end; a trailing ';' is dropped. */
    private String readSql(int headerLine) {
        List<String> sql = new ArrayList<>();
        while (pos < lines.size()) {
            String l = lines.get(pos);
            if (l.isBlank() || l.strip().equals(SEPARATOR)) {
                break;
            }
            sql.add(l);
            pos++;
        }
        String s = String.join("\n", sql).strip();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).stripTrailing();
        }
        if (s.isEmpty()) {
            throw error(headerLine, "record has no SQL");
        }
        return s;
    }

    private List<String> readUntilBlank() {
        List<String> out = new ArrayList<>();
        while (pos < lines.size() && !lines.get(pos).isBlank()) {
            out.add(lines.get(pos));
            pos++;
        }
        return out;
    }

    private static String[] tokens(String line) {
        return line.strip().split("\\s+");
    }
}
