package io.warpdb.tools;

import io.warpdb.cluster.ClusterConfig;
import io.warpdb.cluster.ClusterNode;
import io.warpdb.cluster.Member;
import io.warpdb.core.error.WarpException;
import io.warpdb.exec.gpu.runtime.DeviceSelection;
import io.warpdb.jdbc.Databases;
import io.warpdb.jdbc.ServerConfig;
import io.warpdb.jdbc.WarpServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code warpdb node}: runs one node of a cluster until the process is stopped. */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run one node of a WarpDB cluster until stopped (Ctrl-C or SIGTERM): its Raft server (catalog, membership"
                + " and load commits), its Arrow Flight service for the other nodes, and a JDBC server on its SQL port, where"
                + " clients connect exactly as to `warpdb server` and this node coordinates their statements.",
                "The configuration is a properties file:",
                "  node.id  = n1",
                "  data.dir = data/n1          (relative to the file; holds raft/ and the shard database db/)",
                "  members  = n1=127.0.0.1:7101:7201:8765, n2=..., n3=...   (id=host:raftPort:flightPort:sqlPort)",
                "  cluster.id = warpdb         (optional: names the Raft group)",
                "  node.timeout.seconds = 60   (optional: a query waiting longer for another node's rows fails naming it)",
                "  gpu.devices = 1             (optional: the CUDA devices of this node's GPU executor; default every visible one)",
                ""})
final class NodeCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", required = true, description = "The node's cluster.properties.")
    Path config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        ClusterConfig cluster;
        try {
            cluster = ClusterConfig.load(config);
        } catch (WarpException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        Member self = cluster.self();
        if (!cluster.gpuDevices().isEmpty()) {
            // read once, when the GPU executor first opens its devices: before the shard database exists
            System.setProperty(DeviceSelection.DEVICES_PROPERTY, cluster.gpuDevices().stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        String location = Databases.directory(cluster.dataDir().resolve("db").toString());
        Databases.Lease lease = Databases.shared().acquire(location);
        ClusterNode node;
        WarpServer server;
        try {
            node = ClusterNode.start(cluster, lease.database());
            try {
                server = WarpServer.start(ServerConfig.defaults().withHost(self.host()).withPort(self.sqlPort()).withDatabase(location));
            } catch (RuntimeException e) {
                node.close();
                throw e;
            }
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            node.close();
            lease.close();
            out.println("WarpDB node " + self.id() + " stopped.");
            out.flush();
        }, "warpdb-node-stop"));
        out.println("WarpDB node " + self.id() + " of " + cluster.members().size() + ": SQL at " + server.warpdbUrl() + ", Raft at "
                + self.raftAddress() + ", data over " + node.transport() + " at " + self.host() + ":" + self.flightPort()
                + ", partitioning on " + node.partitioning()
                + (cluster.gpuDevices().isEmpty() ? "" : ", GPUs " + System.getProperty(DeviceSelection.DEVICES_PROPERTY))
                + ", shard in " + location);
        out.flush();
        server.join();
        return 0;
    }
}
