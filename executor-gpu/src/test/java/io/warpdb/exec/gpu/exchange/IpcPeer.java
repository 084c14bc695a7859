package io.warpdb.exec.gpu.exchange;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;

/**
 * The second process of {@link CudaIpcExchangeTest}: reads the sender's address and one
 * descriptor per part from the file its argument names, pulls each part into its own device
 * memory and prints its rows; exits 1 when it cannot reach the sender.
 */
public final class IpcPeer {
    static final String PULLED = "pulled:";

    private IpcPeer() {
    }

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        byte[] sender = HexFormat.of().parseHex(lines.get(0));
        CudaIpcExchange exchange = new CudaIpcExchange();
        if (!CudaDevice.availability().supported() || !exchange.reaches(sender)) {
            System.out.println("cannot reach " + IpcAddress.decode(sender) + " from " + IpcAddress.decode(exchange.address()));
            System.exit(1);
        }
        StringBuilder out = new StringBuilder(PULLED).append('\n');
        try (RootAllocator allocator = new RootAllocator()) {
            for (int p = 1; p < lines.size(); p++) {
                try (ResidentRows rows = exchange.pull(sender, ByteBuffer.wrap(HexFormat.of().parseHex(lines.get(p))), CudaIpcExchangeTest.SCHEMA);
                        Batch host = rows.toHost(List.of(0, 1, 2, 3), allocator)) {
                    out.append("part ").append(p - 1).append(" rows ").append(rows.rowCount()).append('\n');
                    ResultAssert.rows(List.of(host)).forEach(r -> out.append(r).append('\n'));
                }
            }
        }
        exchange.forget(sender);
        System.out.print(out);
        System.out.flush();
        System.exit(0);
    }
}
