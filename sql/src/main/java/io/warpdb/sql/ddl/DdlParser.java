package io.warpdb.sql.ddl;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.ingest.LoadOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A recursive-descent parser for CREATE/DROP TABLE, CREATE/DROP VIEW, CREATE INDEX and COPY. Errors
 * carry SQLSTATE 42601 and the line and column of the offending token. Column constraints NOT NULL,
 * NULL, PRIMARY KEY (which implies NOT NULL), UNIQUE and DEFAULT, and table constraints PRIMARY
 * KEY (...) and UNIQUE (...), each optionally named by CONSTRAINT, are accepted. NOT NULL and
 * DEFAULT have an effect; the PRIMARY KEY is kept for the planner, which relies on it as declared
 * (neither it nor UNIQUE is enforced).
 */
public final class DdlParser {
    private final String sql;
    private int pos;
    private Token token;

    /** {@code quoted}: a "quoted identifier"; {@code string}: a 'string literal' (text without its quotes). */
    private record Token(String text, boolean quoted, boolean string, int offset) {
        boolean is(String keyword) {
            return !quoted && !string && text.equalsIgnoreCase(keyword);
        }

        boolean isEnd() {
            return text.isEmpty() && !quoted && !string;
        }
    }

    private DdlParser(String sql) {
        this.sql = sql;
        advance();
    }

    /** The DDL statement in {@code sql}, or null when it is none of those this parser knows. */
    public static DdlStatement parse(String sql) {
        DdlParser p = new DdlParser(sql);
        if (p.accept("CREATE")) {
            boolean orReplace = p.acceptAll("OR", "REPLACE");
            if (!orReplace && p.accept("TABLE")) {
                return p.createTable();
            }
            if (!orReplace && (p.accept("INDEX") || p.acceptAll("UNIQUE", "INDEX"))) {
                return p.createIndex();
            }
            if (p.accept("VIEW")) {
                return p.createView(orReplace);
            }
            if (orReplace) {
                throw p.error("VIEW");
            }
            return null;
        }
        if (p.accept("COPY")) {
            return p.copy();
        }
        if (p.accept("DROP")) {
            if (p.accept("TABLE")) {
                return p.dropTable();
            }
            if (p.accept("VIEW")) {
                boolean ifExists = p.acceptAll("IF", "EXISTS");
                String name = p.tableName();
                p.expectEnd();
                return new DdlStatement.DropView(name, ifExists);
            }
        }
        return null;
    }

    private DdlStatement createView(boolean orReplace) {
        String name = tableName();
        List<String> columnNames = null;
        if (accept("(")) {
            columnNames = new ArrayList<>();
            do {
                columnNames.add(identifier("a column name"));
            } while (accept(","));
            expect(")");
        }
        if (!token.is("AS")) {
            throw error("AS");
        }
        return new DdlStatement.CreateView(name, orReplace, blankPrefix(token.offset() + 2), columnNames);
    }

    private DdlStatement createTable() {
        boolean ifNotExists = acceptAll("IF", "NOT", "EXISTS");
        String name = tableName();
        Schema schema = null;
        List<String> columnNames = null;
        Map<String, String> defaults = new LinkedHashMap<>();
        List<String> primaryKey = new ArrayList<>();
        if (accept("(")) {
            if (startsTableConstraint()) {
                throw error("a column definition");
            }
            String first = identifier("a column name");
            if (token.is(",") || token.is(")")) {
                columnNames = new ArrayList<>(List.of(first));
                while (accept(",")) {
                    columnNames.add(identifier("a column name"));
                }
            } else {
                schema = columnDefinitions(first, defaults, primaryKey);
            }
            expect(")");
        }
        if (token.is("AS")) {
            int queryStart = token.offset() + 2;
            return new DdlStatement.CreateTable(name, ifNotExists, null, blankPrefix(queryStart), columnNames, Map.of(), List.of(),
                    null);
        }
        if (schema == null) {
            throw error(columnNames == null ? "'(' or AS" : "AS");
        }
        Distribution distribution = accept("WITH") ? tableOptions() : null;
        if (distribution != null && !distribution.replicated()) {
            distribution.columnIn(schema);
        }
        expectEnd();
        return new DdlStatement.CreateTable(name, ifNotExists, schema, null, null, defaults, List.copyOf(primaryKey),
                distribution);
    }

    /** ( distribution = 'hash(col)' | 'replicated' ): the one table option there is. */
    private Distribution tableOptions() {
        expect("(");
        if (!token.is("DISTRIBUTION")) {
            throw error("distribution");
        }
        advance();
        expect("=");
        Distribution distribution = Distribution.parse(string("'hash(column)' or 'replicated'"));
        expect(")");
        return distribution;
    }

    /**
     * The column definitions and table constraints after the first column's name, up to the closing
     * parenthesis; the columns of the PRIMARY KEY become NOT NULL. Fills {@code defaults} and
     * {@code primaryKey} (its columns as the table names them).
     */
    private Schema columnDefinitions(String firstName, Map<String, String> defaults, List<String> primaryKey) {
        List<Field> fields = new ArrayList<>(List.of(columnDefinition(firstName, defaults, primaryKey)));
        while (accept(",")) {
            if (startsTableConstraint()) {
                if (accept("CONSTRAINT")) {
                    identifier("a constraint name");
                }
                if (acceptAll("PRIMARY", "KEY")) {
                    declarePrimaryKey(primaryKey, columnList());
                } else {
                    expect("UNIQUE");
                    columnList();
                }
            } else {
                fields.add(columnDefinition(identifier("a column name"), defaults, primaryKey));
            }
        }
        for (int k = 0; k < primaryKey.size(); k++) {
            int i = indexOf(fields, primaryKey.get(k));
            fields.set(i, new Field(fields.get(i).name(), fields.get(i).type().withNullable(false)));
            primaryKey.set(k, fields.get(i).name());
        }
        return new Schema(fields);
    }

    /** A table has one PRIMARY KEY, declared on a column or as a table constraint. */
    private void declarePrimaryKey(List<String> primaryKey, List<String> columns) {
        if (!primaryKey.isEmpty()) {
            throw new WarpException(SqlState.INVALID_SQL_STATEMENT, "a table has at most one PRIMARY KEY; "
                    + primaryKey + " and " + columns + " at " + position(token.offset()));
        }
        if (columns.stream().map(c -> c.toUpperCase(Locale.ROOT)).distinct().count() != columns.size()) {
            throw new WarpException(SqlState.DUPLICATE_COLUMN, "PRIMARY KEY " + columns + " names a column twice");
        }
        primaryKey.addAll(columns);
    }

    private boolean startsTableConstraint() {
        return token.is("CONSTRAINT") || token.is("PRIMARY") || token.is("UNIQUE");
    }

    private static int indexOf(List<Field> fields, String column) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        throw new WarpException(SqlState.UNDEFINED_COLUMN, "column " + column + " named in a constraint does not exist");
    }

    /** ( name [ASC|DESC], ... ) */
    private List<String> columnList() {
        expect("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier("a column name"));
            if (!accept("ASC")) {
                accept("DESC");
            }
        } while (accept(","));
        expect(")");
        return names;
    }

    /** CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table [USING method] (column, ...): informational. */
    private DdlStatement createIndex() {
        acceptAll("IF", "NOT", "EXISTS");
        String name = identifier("an index name");
        expect("ON");
        String table = tableName();
        if (accept("USING")) {
            identifier("an index method");
        }
        List<String> columns = columnList();
        expectEnd();
        return new DdlStatement.CreateIndex(name, table, columns);
    }

    /** COPY table FROM 'file' [, 'file' ...] [[WITH] (option value, ...)]; options as {@link LoadOptions#NAMES}. */
    private DdlStatement copy() {
        String table = tableName();
        expect("FROM");
        List<String> files = new ArrayList<>(List.of(string("a file name in quotes")));
        while (accept(",")) {
            files.add(string("a file name in quotes"));
        }
        Map<String, String> options = new LinkedHashMap<>();
        boolean with = accept("WITH");
        if (accept("(")) {
            do {
                String name = token.text().toUpperCase(Locale.ROOT);
                if (token.quoted() || token.string() || !LoadOptions.NAMES.contains(name)) {
                    throw error("an option (" + String.join(", ", LoadOptions.NAMES) + ")");
                }
                advance();
                if (token.isEnd() || token.is(",") || token.is(")")) {
                    throw error("a value for " + name);
                }
                options.put(name, token.text());
                advance();
            } while (accept(","));
            expect(")");
        } else if (with) {
            throw error("'('");
        }
        expectEnd();
        return new DdlStatement.Copy(table, files, options);
    }

    private String string(String what) {
        if (!token.string()) {
            throw error(what);
        }
        String s = token.text();
        advance();
        return s;
    }

    private DdlStatement dropTable() {
        boolean ifExists = acceptAll("IF", "EXISTS");
        String name = tableName();
        expectEnd();
        return new DdlStatement.DropTable(name, ifExists);
    }

    /**
     * TIMESTAMP [(p)] [WITHOUT TIME ZONE]: microseconds whatever p says (0..6); WITH TIME ZONE is
     * not supported.
     */
    private DataType timestampParameters() {
        int precision = optionalLength(DataType.TIMESTAMP_PRECISION);
        if (precision > DataType.TIMESTAMP_PRECISION) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "TIMESTAMP(" + precision + ") is not supported: at most "
                    + DataType.TIMESTAMP_PRECISION + " fraction digits");
        }
        if (token.is("WITH")) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "TIMESTAMP WITH TIME ZONE is not supported");
        }
        acceptAll("WITHOUT", "TIME", "ZONE");
        return DataType.TIMESTAMP;
    }

    /** A column's type and constraints; its DEFAULT, if any, goes into {@code defaults}, a PRIMARY KEY into {@code primaryKey}. */
    private Field columnDefinition(String name, Map<String, String> defaults, List<String> primaryKey) {
        String type = identifier("a column type").toUpperCase(Locale.ROOT);
        DataType t = switch (type) {
            case "INTEGER", "INT", "INT4" -> DataType.INTEGER;
            case "SMALLINT", "INT2" -> DataType.SMALLINT;
            case "TINYINT", "INT1" -> DataType.TINYINT;
            case "BIGINT", "INT8" -> DataType.BIGINT;
            case "DOUBLE" -> {
                accept("PRECISION");
                yield DataType.DOUBLE;
            }
            case "FLOAT", "FLOAT8" -> DataType.DOUBLE;
            case "REAL", "FLOAT4" -> DataType.REAL;
            case "BOOLEAN", "BOOL" -> DataType.BOOLEAN;
            case "DATE" -> DataType.DATE;
            case "TIMESTAMP", "DATETIME" -> timestampParameters();
            case "DECIMAL", "NUMERIC", "DEC" -> decimalParameters();
            case "VARCHAR", "TEXT", "STRING" -> DataType.varchar(optionalLength(0));
            case "CHAR", "CHARACTER" -> token.is("VARYING") ? varying() : DataType.chars(optionalLength(1));
            default -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "type " + type + " at " + position(token.offset())
                    + " is not supported; use BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL(p,s), DATE, TIMESTAMP, CHAR(n) or VARCHAR(n)");
        };
        boolean nullable = true;
        while (true) {
            if (accept("CONSTRAINT")) {
                identifier("a constraint name");
            } else if (acceptAll("NOT", "NULL")) {
                nullable = false;
            } else if (accept("NULL")) {
                nullable = true;
            } else if (acceptAll("PRIMARY", "KEY")) {
                declarePrimaryKey(primaryKey, List.of(name));
                nullable = false;
            } else if (accept("UNIQUE")) {
                continue; // informational
            } else if (accept("DEFAULT")) {
                defaults.put(name, defaultValue());
            } else {
                break;
            }
        }
        return new Field(name, t.withNullable(nullable));
    }

    /** The text of a DEFAULT value: up to the next ',' or ')' outside parentheses, or the next constraint. */
    private String defaultValue() {
        if (accept("NULL")) {
            return "NULL";
        }
        int start = token.offset();
        int depth = 0;
        while (!token.isEnd() && !(depth == 0 && (token.is(",") || token.is(")") || token.is("NOT") || token.is("NULL")
                || token.is("PRIMARY") || token.is("UNIQUE") || token.is("CONSTRAINT")))) {
            depth += token.is("(") ? 1 : token.is(")") ? -1 : 0;
            advance();
        }
        String text = sql.substring(start, token.offset()).strip();
        if (text.isEmpty()) {
            throw error("a DEFAULT value");
        }
        return text;
    }

    private DataType varying() {
        advance();
        return DataType.varchar(optionalLength(0));
    }

    private DataType decimalParameters() {
        int precision = DataType.MAX_DECIMAL_PRECISION;
        int scale = 0;
        if (accept("(")) {
            precision = integer();
            if (accept(",")) {
                scale = integer();
            }
            expect(")");
        }
        return DataType.decimal(precision, scale);
    }

    private int optionalLength(int absent) {
        if (!accept("(")) {
            return absent;
        }
        int n = integer();
        expect(")");
        return n;
    }

    private int integer() {
        try {
            int v = Integer.parseInt(token.text());
            advance();
            return v;
        } catch (NumberFormatException e) {
            throw error("an integer");
        }
    }

    /** A table name, optionally qualified by the one schema. */
    private String tableName() {
        String name = identifier("a table name");
        if (accept(".")) {
            name = identifier("a table name");
        }
        return name;
    }

    private String identifier(String what) {
        boolean word = token.quoted() || (!token.string() && !token.text().isEmpty() && Character.isLetter(token.text().charAt(0)));
        if (!word) {
            throw error(what);
        }
        String s = token.text();
        advance();
        return s;
    }

    private boolean accept(String text) {
        if (token.is(text)) {
            advance();
            return true;
        }
        return false;
    }

    /** Accepts the whole keyword sequence, or nothing: IF must be followed by the rest. */
    private boolean acceptAll(String... keywords) {
        if (!token.is(keywords[0])) {
            return false;
        }
        advance();
        for (int i = 1; i < keywords.length; i++) {
            expect(keywords[i]);
        }
        return true;
    }

    private void expect(String text) {
        if (!accept(text)) {
            throw error("'" + text + "'");
        }
    }

    private void expectEnd() {
        accept(";");
        if (!token.isEnd()) {
            throw error("end of statement");
        }
    }

    private WarpException error(String expected) {
        String found = token.isEnd() ? "end of statement" : "'" + token.text() + "'";
        return new WarpException(SqlState.SYNTAX_ERROR, "syntax error at " + position(token.offset()) + ": expected "
                + expected + " but found " + found);
    }

    private String position(int offset) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return "line " + line + ", column " + column;
    }

    /** The statement with everything before {@code offset} blanked, newlines kept. */
    private String blankPrefix(int offset) {
        StringBuilder sb = new StringBuilder(sql.length());
        for (int i = 0; i < offset; i++) {
            sb.append(sql.charAt(i) == '\n' ? '\n' : ' ');
        }
        return sb.append(sql, offset, sql.length()).toString();
    }

    private void advance() {
        skipSpaceAndComments();
        if (pos >= sql.length()) {
            token = new Token("", false, false, pos);
            return;
        }
        int start = pos;
        char c = sql.charAt(pos);
        if (c == '"' || c == '\'') {
            StringBuilder sb = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= sql.length()) {
                    throw new WarpException(SqlState.SYNTAX_ERROR, "syntax error at " + position(start) + ": unterminated "
                            + (c == '"' ? "quoted identifier" : "string"));
                }
                char q = sql.charAt(pos++);
                if (q == c) {
                    if (pos < sql.length() && sql.charAt(pos) == c) {
                        sb.append(c);
                        pos++;
                        continue;
                    }
                    break;
                }
                sb.append(q);
            }
            token = new Token(sb.toString(), c == '"', c == '\'', start);
        } else if (Character.isLetterOrDigit(c) || c == '_') {
            while (pos < sql.length() && (Character.isLetterOrDigit(sql.charAt(pos)) || sql.charAt(pos) == '_' || sql.charAt(pos) == '$')) {
                pos++;
            }
            token = new Token(sql.substring(start, pos), false, false, start);
        } else {
            pos++;
            token = new Token(String.valueOf(c), false, false, start);
        }
    }

    private void skipSpaceAndComments() {
        while (pos < sql.length()) {
            char c = sql.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (sql.startsWith("--", pos)) {
                int nl = sql.indexOf('\n', pos);
                pos = nl < 0 ? sql.length() : nl + 1;
            } else if (sql.startsWith("/*", pos)) {
                int end = sql.indexOf("*/", pos + 2);
                pos = end < 0 ? sql.length() : end + 2;
            } else {
                return;
            }
        }
    }
}
