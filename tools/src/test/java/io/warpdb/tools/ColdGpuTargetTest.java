package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.sql.Database;
import io.warpdb.tpch.TpchQuery;
import io.warpdb.tpch.TransferReport;
import io.warpdb.tpch.WarpDbTarget;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What gpu-cold reports copying per query: one entry per query that ran, in query order; on a GPU, real bytes. */
class ColdGpuTargetTest {
    private static final TpchQuery SUM = new TpchQuery(1, "select sum(a) from t", List.of(), List.of());
    private static final TpchQuery COUNT = new TpchQuery(2, "select count(*) from t where a > 10", List.of(), List.of());
    private static final TpchQuery NEVER_RUN = new TpchQuery(3, "select max(a) from t", List.of(), List.of());

    private static Database database;

    @BeforeAll
    static void createTable() {
        database = Database.inMemory("cold-gpu-target-test");
        try (var session = database.newSession()) {
            session.execute("create table t (a bigint)", List.of()).close();
            session.execute("insert into t values (1), (20), (300), (4000)", List.of()).close();
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @Test
    void reportsTheQueriesThatRanInQueryOrder() {
        // The CPU executor copies nothing to a device: the figures are zero, the entries are there.
        try (ColdGpuTarget cold = new ColdGpuTarget(new WarpDbTarget(database, "cpu"))) {
            cold.query(COUNT.sql());
            cold.query(SUM.sql());
            TransferReport report = cold.transfers(List.of(SUM, COUNT, NEVER_RUN));
            assertEquals(List.of(new TransferReport.QueryTransfer("q01", 0, 0), new TransferReport.QueryTransfer("q02", 0, 0)),
                    report.queries());
        }
    }

    @Test
    void onAGpuCountsTheColumnsCopiedAndTheirDecodedBytes() {
        assumeTrue(CudaDevice.availability().supported(), () -> "no GPU: " + CudaDevice.availability().reason());
        try (ColdGpuTarget cold = new ColdGpuTarget(new WarpDbTarget(database, "gpu"))) {
            cold.query(SUM.sql());
            TransferReport.QueryTransfer sum = cold.transfers(List.of(SUM)).queries().get(0);
            assertTrue(sum.copiedBytes() > 0, sum.toString());
            assertTrue(sum.scannedColumnBytes() >= 4 * Long.BYTES, "four BIGINT values decoded: " + sum);
        }
    }
}
