package io.warpdb.tools;

import io.warpdb.jdbc.WarpDriver;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code warpdb} command line. */
@Command(name = "warpdb", mixinStandardHelpOptions = true, versionProvider = WarpCli.Version.class,
        description = "WarpDB: a columnar SQL database for analytics, reached over JDBC.",
        subcommands = {ServerCommand.class, NodeCommand.class, SqlCommand.class, LoadCommand.class, DemoCommand.class, TpchCommand.class, TpcdsCommand.class, FuzzCommand.class})
public final class WarpCli implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line as {@link #main} runs it: a failure prints one line, not a stack trace. */
    static CommandLine commandLine() {
        return new CommandLine(new WarpCli()).setExecutionExceptionHandler((e, commandLine, parsed) -> {
            commandLine.getErr().println("warpdb: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            return 1;
        });
    }

    /** Without a subcommand, say what there is. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version the build stamped into the driver. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"warpdb " + WarpDriver.VERSION.productVersion};
        }
    }
}
