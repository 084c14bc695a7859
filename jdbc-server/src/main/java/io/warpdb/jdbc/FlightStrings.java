package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import java.util.Locale;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * How a Flight SQL call's string columns travel: as Arrow dictionaries (the executors' codes as
 * they are, each dictionary sent once) or as plain UTF-8. A client chooses with the header
 * {@code warpdb-strings: dictionary} or {@code utf8} (the stock JDBC driver sends its unknown URL
 * properties as headers, ADBC its {@code adbc.flight.sql.rpc.call_header.*} options). Without
 * the header, grpc-java clients get UTF-8 and all others dictionaries: the stock Flight SQL JDBC
 * driver (18.x) reads a dictionary-encoded column as its integer codes, while pyarrow, ADBC and
 * the other Arrow libraries decode dictionaries.
 */
final class FlightStrings implements FlightServerMiddleware.Factory<FlightStrings.Choice> {
    static final FlightServerMiddleware.Key<Choice> KEY = FlightServerMiddleware.Key.of("warpdb-strings");
    static final String HEADER = "warpdb-strings";

    /** True when the call's results send strings as Arrow dictionaries. */
    static boolean asDictionaries(CallContext context) {
        Choice choice = context.getMiddleware(KEY);
        return choice == null || choice.dictionaries;
    }

    @Override
    public Choice onCallStarted(CallInfo info, CallHeaders headers, RequestContext context) {
        String asked = headers.get(HEADER);
        if (asked == null) {
            String agent = headers.get("user-agent");
            return new Choice(agent == null || !agent.contains("grpc-java"));
        }
        return switch (asked.strip().toLowerCase(Locale.ROOT)) {
            case "dictionary" -> new Choice(true);
            case "utf8" -> new Choice(false);
            default -> throw CallStatus.INVALID_ARGUMENT.withDescription("header " + HEADER + " must be dictionary or utf8, not '"
                    + asked + "' (SQLSTATE " + SqlState.INVALID_PARAMETER_VALUE.code() + ")").toRuntimeException();
        };
    }

    /** A call's choice. */
    static final class Choice implements FlightServerMiddleware {
        final boolean dictionaries;

        Choice(boolean dictionaries) {
            this.dictionaries = dictionaries;
        }

        @Override
        public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {
        }

        @Override
        public void onCallCompleted(CallStatus status) {
        }

        @Override
        public void onCallErrored(Throwable err) {
        }
    }
}
