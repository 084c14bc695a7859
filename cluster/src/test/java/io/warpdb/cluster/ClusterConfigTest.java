package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The transport, wire compression and shuffle settings of cluster.properties: defaults, choices, and a clear 22023 for anything else. */
class ClusterConfigTest {
    private static Properties node(String... settings) {
        Properties p = new Properties();
        p.setProperty("node.id", "n1");
        p.setProperty("data.dir", "n1");
        p.setProperty("members", "n1=127.0.0.1:1:2:3, n2=127.0.0.1:4:5:6");
        for (int i = 0; i < settings.length; i += 2) {
            p.setProperty(settings[i], settings[i + 1]);
        }
        return p;
    }

    @Test
    void flightAndCompressionByDefault() {
        ClusterConfig config = ClusterConfig.of(node(), Path.of("."));
        assertEquals(ClusterConfig.Transport.FLIGHT, config.transport());
        assertEquals(WireCompression.AUTO, config.wireCompression());
        assertTrue(config.gpuPartitioning());
        assertTrue(config.deviceExchange());
    }

    /** Compression by default only between hosts, where the wire is a link rather than a memory copy. */
    @Test
    void compressionBetweenHostsByDefaultEverywhereWhenAlways() {
        Member a = new Member("n1", "10.0.0.1", 1, 2, 3);
        Member b = new Member("n2", "10.0.0.1", 4, 5, 6);
        Member c = new Member("n3", "10.0.0.2", 1, 2, 3);
        assertFalse(WireCompression.AUTO.between(a, b));
        assertTrue(WireCompression.AUTO.between(a, c));
        assertTrue(WireCompression.ALWAYS.between(a, b));
        assertFalse(WireCompression.NONE.between(a, c));
        assertFalse(WireCompression.AUTO.toAnyOf(a, List.of(a, b)));
        assertTrue(WireCompression.AUTO.toAnyOf(a, List.of(a, b, c)));
        assertEquals(WireCompression.ALWAYS, ClusterConfig.of(node("wire.compression", " Always"), Path.of(".")).wireCompression());
    }

    @Test
    void gpuPartitioningOff() {
        assertFalse(ClusterConfig.of(node("gpu.partitioning", "OFF"), Path.of(".")).gpuPartitioning());
    }

    @Test
    void deviceExchangeOff() {
        assertFalse(ClusterConfig.of(node("exchange.device", "off"), Path.of(".")).deviceExchange());
    }

    @Test
    void gpuDevicesListTheNodesGpusOrNoneForEveryVisibleOne() {
        assertEquals(java.util.List.of(), ClusterConfig.of(node(), Path.of(".")).gpuDevices());
        assertEquals(java.util.List.of(2, 0), ClusterConfig.of(node("gpu.devices", " 2, 0 "), Path.of(".")).gpuDevices());
        for (String bad : new String[] {"1,1", "-1", "one", "0,"}) {
            WarpException e = assertThrows(WarpException.class, () -> ClusterConfig.of(node("gpu.devices", bad), Path.of(".")));
            assertEquals(SqlState.INVALID_PARAMETER_VALUE, e.state());
            assertEquals("gpu.devices must list distinct device numbers (0, 1, ...), not " + bad, e.getMessage());
        }
    }

    @Test
    void ucxWithoutCompression() {
        ClusterConfig config = ClusterConfig.of(node("transport", " UCX ", "wire.compression", "none"), Path.of("."));
        assertEquals(ClusterConfig.Transport.UCX, config.transport());
        assertEquals(WireCompression.NONE, config.wireCompression());
    }

    @Test
    void oneLevelShuffleByDefaultGroupsByHostOrByGroupSetting() {
        ClusterConfig config = ClusterConfig.of(node(), Path.of("."));
        assertFalse(config.twoLevelShuffle());
        assertEquals(java.util.List.of(0, 0), config.groupNumbers(), "both nodes on 127.0.0.1");
        config = ClusterConfig.of(node("exchange.shuffle", "two-level", "group.n2", "b"), Path.of("."));
        assertTrue(config.twoLevelShuffle());
        assertEquals(java.util.List.of("127.0.0.1", "b"), config.groups());
        assertEquals(java.util.List.of(0, 1), config.groupNumbers());
    }

    @Test
    void anotherValueIsRefused() {
        WarpException e = assertThrows(WarpException.class, () -> ClusterConfig.of(node("transport", "rdma"), Path.of(".")));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, e.state());
        assertEquals("transport must be flight or ucx, not rdma", e.getMessage());
        e = assertThrows(WarpException.class, () -> ClusterConfig.of(node("wire.compression", "lz4"), Path.of(".")));
        assertEquals("wire.compression must be auto or always or none, not lz4", e.getMessage());
        e = assertThrows(WarpException.class, () -> ClusterConfig.of(node("gpu.partitioning", "yes"), Path.of(".")));
        assertEquals("gpu.partitioning must be auto or off, not yes", e.getMessage());
        e = assertThrows(WarpException.class, () -> ClusterConfig.of(node("exchange.device", "ipc"), Path.of(".")));
        assertEquals("exchange.device must be auto or off, not ipc", e.getMessage());
        e = assertThrows(WarpException.class, () -> ClusterConfig.of(node("exchange.shuffle", "three-level"), Path.of(".")));
        assertEquals("exchange.shuffle must be one-level or two-level, not three-level", e.getMessage());
    }

    @Test
    void aMemberIdThatCouldNotNameAFileIsRefused() {
        WarpException e = assertThrows(WarpException.class, () -> ClusterConfig.of(node("members", "n1=127.0.0.1:1:2:3, a/b=h:4:5:6"),
                Path.of(".")));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, e.state());
        assertEquals("a member's id is made of letters, digits, '_', '.' and '-', not 'a/b'", e.getMessage());
        assertEquals("gpu-0.host_1", ClusterConfig.of(node("members", "n1=127.0.0.1:1:2:3, gpu-0.host_1=h:4:5:6"), Path.of("."))
                .members().get(1).id());
    }

    /** The README's example clusters (on one machine, on three) are configurations a node accepts as written. */
    @Test
    void theExampleConfigurationsLoad() {
        for (String example : new String[] {"loopback", "three-hosts"}) {
            for (int n = 1; n <= 3; n++) {
                ClusterConfig config = ClusterConfig.load(Path.of("examples", example, "n" + n + ".properties"));
                assertEquals("n" + n, config.nodeId());
                assertEquals(3, config.members().size());
                assertEquals("n" + n, config.dataDir().getFileName().toString());
            }
        }
        assertEquals(ClusterConfig.Transport.UCX, ClusterConfig.load(Path.of("examples", "three-hosts", "n1.properties")).transport());
    }
}
