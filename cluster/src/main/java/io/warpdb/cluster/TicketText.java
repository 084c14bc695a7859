package io.warpdb.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.Optional;

/**
 * The text of a ticket a node asks another to run ({@link ShardService#open}) that is not plain
 * SQL: a word naming its kind, a space, and the ticket as JSON ({@link FragmentTicket}, {@link
 * CopyRangeTicket}).
 */
final class TicketText {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TicketText() {
    }

    /** {@code ticket} as text of kind {@code kind}. */
    static String write(String kind, Object ticket) {
        try {
            return kind + " " + JSON.writeValueAsString(ticket);
        } catch (JsonProcessingException e) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "a " + kind + " ticket could not be written: " + e.getMessage(), e);
        }
    }

    /** The ticket of kind {@code kind} that {@code text} holds, or empty when it holds another request. */
    static <T> Optional<T> read(String kind, String text, Class<T> type) {
        String prefix = kind + " ";
        if (!text.startsWith(prefix)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(text.substring(prefix.length()), type));
        } catch (JsonProcessingException e) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "not a " + kind + " ticket: " + e.getMessage(), e);
        }
    }
}
