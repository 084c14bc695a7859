package io.warpdb.tools;

import io.warpdb.jdbc.Databases;
import io.warpdb.jdbc.WarpServer;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code warpdb server}: serves an in-memory or durable database until the process is stopped. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = "Serve a database to JDBC clients over HTTP (Avatica protobuf protocol) until stopped.")
final class ServerCommand implements Callable<Integer> {
    @Option(names = "--port", description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port = WarpServer.DEFAULT_PORT;

    @Option(names = "--host", description = "Address to listen on; 0.0.0.0 serves other hosts, "
            + "but note there is no authentication yet (default: ${DEFAULT-VALUE}).")
    String host = WarpServer.DEFAULT_HOST;

    @Option(names = "--name", description = "Name of the in-memory database served (default: warpdb).")
    String name = "warpdb";

    @Option(names = "--data", description = "Serve the durable database in this directory (created when missing) "
            + "instead of an in-memory one.")
    String data;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        String database = data != null ? Databases.directory(data) : Databases.MEMORY + name;
        WarpServer server = WarpServer.start(host, port, database);
        // SIGTERM and Ctrl-C run shutdown hooks: stop serving and free the database before the JVM goes.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            out.println("WarpDB server stopped.");
            out.flush();
        }, "warpdb-server-stop"));
        out.println("WarpDB server: database '" + (data != null ? database : name) + "' at " + server.jdbcUrl());
        out.flush();
        server.join();
        return 0;
    }
}
