package io.warpdb.tools;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;
import sqlline.SqlLine;

/** {@code warpdb sql}: the sqlline shell, connected to WarpDB. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "Interactive SQL shell (sqlline). Options it does not know itself go to sqlline, "
                + "e.g. -e \"SELECT 1\" or -f script.sql.")
final class SqlCommand implements Callable<Integer> {
    static final String DEFAULT_URL = "jdbc:warpdb:mem:warpdb";

    @Option(names = {"-u", "--url"}, description = "JDBC URL to connect to, e.g. "
            + "jdbc:avatica:remote:url=http://localhost:8765;serialization=protobuf or, for a server started with --flight-port,"
            + " jdbc:arrow-flight-sql://localhost:8815?useEncryption=false (default: ${DEFAULT-VALUE}).")
    String url = DEFAULT_URL;

    @Unmatched
    List<String> sqllineArguments = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        // WarpDB has no users yet: an empty name and password keep sqlline from asking for them.
        // Nor transactions: without TRANSACTION_NONE sqlline asks for REPEATABLE_READ and warns.
        List<String> arguments = new ArrayList<>(List.of("-u", url, "-n", "", "-p", "", "--isolation=TRANSACTION_NONE"));
        arguments.addAll(sqllineArguments);
        SqlLine.Status status = SqlLine.start(arguments.toArray(String[]::new), null, true);
        return status == SqlLine.Status.OK ? 0 : 1;
    }
}
