package io.warpdb.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code warpdb} run in a JVM of its own, as the launcher runs it, with this test's class path. */
final class CliProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;

    CliProcess(String... arguments) throws IOException {
        this(List.of(), arguments);
    }

    /** With these JVM options before the class path (e.g. system properties). */
    CliProcess(List<String> jvmOptions, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), WarpCli.class.getName()));
        command.addAll(List.of(arguments));
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** The next line the command prints; null at the end. */
    String readLine() throws IOException {
        return out.readLine();
    }

    /** Everything the command prints from here on, once it has exited. */
    String readRest() throws IOException {
        StringBuilder b = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            b.append(line).append('\n');
        }
        return b.toString();
    }

    /** Sends SIGTERM, as {@code kill} and service managers do (Process.destroy would also close our end of stdout). */
    void terminate() {
        process.toHandle().destroy();
    }

    /** Sends SIGKILL: the process ends at once, with no shutdown hook (a crash, as far as the data is concerned). */
    void kill() {
        process.toHandle().destroyForcibly();
    }

    /** Waits for the exit and returns its status. */
    int waitFor() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("warpdb did not exit within a minute");
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
