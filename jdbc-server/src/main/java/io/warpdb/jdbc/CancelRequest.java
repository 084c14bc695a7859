package io.warpdb.jdbc;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code CANCEL QUERY 'connection-id'}: cancels the statement another connection runs, as
 * {@code Statement.cancel()} of the remote driver sends it over a connection of its own (the
 * Avatica protocol has no cancel request, and the statement's own connection is busy running it).
 * The connection id is a random UUID only its client knows, as PostgreSQL's cancel key is.
 * The statement answers an update count: 1 when a statement was cancelled, 0 when none ran.
 * It is handled before the statement queue, so that it never waits behind the work it cancels.
 */
final class CancelRequest {
    private static final Pattern SYNTAX = Pattern.compile("\\s*CANCEL\\s+QUERY\\s+'([^']+)'\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    private CancelRequest() {
    }

    /** The statement that cancels what connection {@code connectionId} runs. */
    static String sql(String connectionId) {
        return "CANCEL QUERY '" + connectionId.replace("'", "") + "'";
    }

    /** The connection id {@code sql} names when it is a cancel request, else null. */
    static String connectionId(String sql) {
        if (sql.length() > 200 || !sql.stripLeading().toUpperCase(Locale.ROOT).startsWith("CANCEL")) {
            return null;
        }
        Matcher m = SYNTAX.matcher(sql);
        return m.matches() ? m.group(1) : null;
    }
}
