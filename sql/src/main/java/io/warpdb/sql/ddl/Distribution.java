package io.warpdb.sql.ddl;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a cluster spreads a table's rows over its nodes, from {@code CREATE TABLE ... WITH
 * (distribution = 'hash(col)' | 'replicated')}: by the hash of one column, or a full copy on
 * every node. One node holds everything anyway, so a single database keeps it as information.
 *
 * @param column the hashed column's name; null when replicated
 */
public record Distribution(String column) {
    public static final Distribution REPLICATED = new Distribution(null);

    private static final Pattern HASH = Pattern.compile("\\s*hash\\s*\\(\\s*\"?([A-Za-z_][A-Za-z0-9_$]*)\"?\\s*\\)\\s*",
            Pattern.CASE_INSENSITIVE);

    public static Distribution hash(String column) {
        return new Distribution(column);
    }

    public boolean replicated() {
        return column == null;
    }

    /** Reads {@code hash(col)} or {@code replicated}; SQLSTATE 22023 for anything else. */
    public static Distribution parse(String text) {
        if (text.trim().equalsIgnoreCase("replicated")) {
            return REPLICATED;
        }
        Matcher m = HASH.matcher(text);
        if (!m.matches()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "distribution must be 'hash(column)' or 'replicated', not '"
                    + text + "'");
        }
        return hash(m.group(1));
    }

    /** The hashed column's position in {@code schema}; SQLSTATE 42703 when the table has no such column. */
    public int columnIn(Schema schema) {
        for (int i = 0; i < schema.size(); i++) {
            if (schema.field(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        throw new WarpException(SqlState.UNDEFINED_COLUMN, "distribution column " + column + " is not a column of the table");
    }

    /** The form {@link #parse} reads. */
    @Override
    public String toString() {
        return replicated() ? "replicated" : "hash(" + column.toLowerCase(Locale.ROOT) + ")";
    }
}
