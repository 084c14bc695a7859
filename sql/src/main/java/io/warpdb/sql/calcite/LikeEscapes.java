package io.warpdb.sql.calcite;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.NlsString;

/**
 * LIKE's ESCAPE clause checked and made safe for Calcite's simplifier before validation:
 * an escape that is not one character is SQLSTATE 22019 (Calcite 1.42 crashed on '': CALCITE-7578),
 * and a pattern escaped with '%' or '_' is rewritten to the same pattern escaped with a
 * backslash. RexSimplify merges wildcards across such escapes (CALCITE-7588) and reads a pattern
 * made of '%' only as "matches everything" whatever its escape ({@code '%%' ESCAPE '%'} is the
 * text "%"); with a backslash escape neither happens.
 */
final class LikeEscapes extends SqlShuttle {
    private static final char SAFE_ESCAPE = '\\';

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall like) || like.getKind() != SqlKind.LIKE || like.operandCount() != 3
                || !(like.operand(2) instanceof SqlCharStringLiteral escapeLiteral)) {
            return visited;
        }
        String escape = text(escapeLiteral);
        if (escape.length() != 1) {
            throw new WarpException(SqlState.INVALID_ESCAPE_CHARACTER, "invalid escape character '" + escape
                    + "': a LIKE escape is one character");
        }
        char e = escape.charAt(0);
        if ((e != '%' && e != '_') || !(like.operand(1) instanceof SqlCharStringLiteral patternLiteral)) {
            return visited;
        }
        String pattern = reescaped(text(patternLiteral), e);
        if (pattern == null) {
            return visited; // a malformed pattern: the executor reports it
        }
        return like.getOperator().createCall(like.getFunctionQuantifier(), like.getParserPosition(), like.operand(0),
                SqlLiteral.createCharString(pattern, patternLiteral.getParserPosition()),
                SqlLiteral.createCharString(String.valueOf(SAFE_ESCAPE), escapeLiteral.getParserPosition()));
    }

    private static String text(SqlCharStringLiteral literal) {
        return literal.getValueAs(NlsString.class).getValue();
    }

    /** {@code pattern} with escape {@code e} written with {@link #SAFE_ESCAPE}; null if an escape ends it or escapes nothing. */
    private static String reescaped(String pattern, char e) {
        StringBuilder out = new StringBuilder(pattern.length() + 4);
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == e) {
                if (i + 1 == pattern.length()) {
                    return null;
                }
                char escaped = pattern.charAt(++i);
                if (escaped != '%' && escaped != '_') {
                    return null;
                }
                out.append(SAFE_ESCAPE).append(escaped);
            } else if (c == SAFE_ESCAPE) {
                out.append(SAFE_ESCAPE).append(SAFE_ESCAPE);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
