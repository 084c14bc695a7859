package io.warpdb.exec.gpu.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The CUDA IPC exchange on a device, against the CPU's partitioner on random rows (NULLs, extremes,
 * a batch of 1 and one of 33 rows): this process hashes them into parts it keeps on the device and
 * exports; a second process ({@link IpcPeer}, on the same device, which CUDA IPC allows between
 * processes) maps this one's memory, pulls every part and prints its rows, which must be the CPU's
 * parts in order. The parts taken locally and brought to the host are the CPU's too, and no device
 * memory is left once every hold is closed. Rows already on the device (an executor's result) split
 * where they are as the CPU splits them.
 */
class CudaIpcExchangeTest extends GpuTestBase {
    static final Schema SCHEMA = Schema.of(new Field("k", DataType.BIGINT), new Field("x", DataType.DOUBLE),
            new Field("d", DataType.DATE), new Field("b", DataType.BOOLEAN));
    private static final int PARTS = 3;

    @Test
    void theServiceIsFoundWhereADeviceIs() {
        if (GpuTests.gpuAvailable()) {
            assertTrue(DeviceExchange.find().orElseThrow() instanceof CudaIpcExchange);
        } else {
            System.out.println("CUDA IPC exchange not offered: no device");
            assertFalse(DeviceExchange.find().isPresent());
        }
    }

    @Test
    void aProcessOfTheSameDevicePullsThePartsAsTheCpuSplitsThem() throws Exception {
        GpuTests.assumeGpu();
        CudaIpcExchange exchange = new CudaIpcExchange();
        RandomBatches random = new RandomBatches(11);
        List<Batch> batches = new ArrayList<>(random.generate(SCHEMA, 100_000, Options.plain().withNulls(0.1).withExtremes(), allocator));
        batches.addAll(random.generate(SCHEMA, 1, Options.plain(), allocator));
        batches.addAll(random.generate(SCHEMA, 33, Options.plain().withNulls(0.5), allocator));
        List<List<Batch>> expected = HashPartitioner.cpu().splitChunk(batches, List.of(0), PARTS, allocator);
        Path descriptors = Files.createTempFile("ipc-parts", ".txt");
        try (DeviceParts parts = exchange.split(batches, List.of(0), PARTS).orElseThrow()) {
            List<String> lines = new ArrayList<>(List.of(HexFormat.of().formatHex(exchange.address())));
            List<DeviceParts.Exported> exported = new ArrayList<>();
            try {
                for (int p = 0; p < PARTS; p++) {
                    List<List<Object>> rows = ResultAssert.rows(expected.get(p));
                    assertEquals(rows.size(), parts.rows(p), "part " + p);
                    try (Batch host = parts.toHost(p, allocator); ResidentRows taken = parts.take(p);
                            Batch takenHost = taken.toHost(List.of(0, 1, 2, 3), allocator)) {
                        ResultAssert.assertSameOrderedRows(rows, ResultAssert.rows(List.of(host)), "part " + p + " on the host");
                        ResultAssert.assertSameOrderedRows(rows, ResultAssert.rows(List.of(takenHost)), "part " + p + " taken");
                    }
                    DeviceParts.Exported e = parts.export(p);
                    exported.add(e);
                    byte[] descriptor = new byte[e.descriptor().remaining()];
                    e.descriptor().get(descriptor);
                    lines.add(HexFormat.of().formatHex(descriptor));
                }
                Files.write(descriptors, lines);
                List<String> pulled = runPeer(descriptors);
                List<String> want = new ArrayList<>();
                for (int p = 0; p < PARTS; p++) {
                    want.add("part " + p + " rows " + parts.rows(p));
                    ResultAssert.rows(expected.get(p)).forEach(r -> want.add(r.toString()));
                }
                assertEquals(want.size(), pulled.size(), "lines the peer printed");
                for (int i = 0; i < want.size(); i++) {
                    assertEquals(want.get(i), pulled.get(i), "line " + i);
                }
            } finally {
                exported.forEach(DeviceParts.Exported::close);
            }
        } finally {
            Files.deleteIfExists(descriptors);
            batches.forEach(Batch::close);
            expected.forEach(part -> part.forEach(Batch::close));
        }
    }

    /**
     * An executor's result on the device is hashed where it is, a chunk of rows at a time, as the
     * CPU hashes the same rows: each part's rows of the chunks in chunk order are the CPU's part;
     * a range of the rows comes to the host as those rows.
     */
    @Test
    void rowsOnTheDeviceSplitByChunkAsTheCpuSplitsThem() {
        GpuTests.assumeGpu();
        CudaIpcExchange exchange = new CudaIpcExchange();
        List<Batch> batches = new RandomBatches(13).generate(SCHEMA, 50_000, Options.plain().withNulls(0.2).withExtremes(), allocator);
        List<List<Batch>> expected = HashPartitioner.cpu().splitChunk(batches, List.of(0, 1), PARTS, allocator);
        int chunk = 12_345;
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                ResidentRows rows = new DeviceRows(HostToDevice.upload(SCHEMA, batches, work))) {
            List<List<List<Object>>> actual = new ArrayList<>();
            for (int p = 0; p < PARTS; p++) {
                actual.add(new ArrayList<>());
            }
            for (int from = 0; from < rows.rowCount(); from += chunk) {
                try (DeviceParts parts = exchange.split(rows, from, Math.min(chunk, rows.rowCount() - from), List.of(0, 1), PARTS)
                        .orElseThrow()) {
                    for (int p = 0; p < PARTS; p++) {
                        try (Batch host = parts.toHost(p, allocator)) {
                            actual.get(p).addAll(ResultAssert.rows(List.of(host)));
                        }
                    }
                }
            }
            for (int p = 0; p < PARTS; p++) {
                ResultAssert.assertSameOrderedRows(ResultAssert.rows(expected.get(p)), actual.get(p), "part " + p);
            }
            try (Batch range = rows.toHost(List.of(2, 0), 49_990, 10, allocator)) {
                List<List<Object>> all = ResultAssert.rows(batches);
                List<List<Object>> want = all.subList(49_990, 50_000).stream().map(r -> Arrays.asList(r.get(2), r.get(0))).toList();
                ResultAssert.assertSameOrderedRows(want, ResultAssert.rows(List.of(range)), "rows [49990, 50000) of columns 2 and 0");
            }
        } finally {
            batches.forEach(Batch::close);
            expected.forEach(part -> part.forEach(Batch::close));
        }
    }

    /** Runs {@link IpcPeer} on {@code descriptors} in a process of its own; its output's lines after "pulled". */
    private static List<String> runPeer(Path descriptors) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> !a.startsWith("-D" + "warpdb.gpu.memory") && !a.startsWith("-agentlib") && !a.startsWith("-javaagent"))
                .forEach(command::add);
        command.add("-Dwarpdb.gpu.memory=512m");
        command.addAll(List.of("-cp", classPath(), IpcPeer.class.getName(), descriptors.toString()));
        Process peer = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> out = new ArrayList<>();
        boolean pulled = false;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (pulled) {
                    out.add(line);
                } else {
                    pulled = line.equals(IpcPeer.PULLED);
                    if (!pulled) {
                        System.out.println("peer: " + line);
                    }
                }
            }
        }
        assertTrue(peer.waitFor(2, TimeUnit.MINUTES), "peer process finished");
        assertEquals(0, peer.exitValue(), "peer exit status");
        assertTrue(pulled, "the peer reached this process and pulled");
        return out;
    }

    /** This test's class path: the JVM's, and the URLs of the loaders above this class (a console launcher's). */
    private static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (ClassLoader l = CudaIpcExchangeTest.class.getClassLoader(); l != null; l = l.getParent()) {
            if (l instanceof URLClassLoader u) {
                for (URL url : u.getURLs()) {
                    entries.add(new File(url.getPath()).getPath());
                }
            }
        }
        entries.addAll(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        return String.join(File.pathSeparator, entries);
    }
}
