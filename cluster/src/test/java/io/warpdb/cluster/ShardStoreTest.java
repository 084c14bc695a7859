package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.StorageOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shard's staged loads are durable: what a shard staged before it died is published when it
 * replays the load's COMMIT after a restart, and what no COMMIT will publish goes at the ABORT or
 * ABANDON that the log gives instead.
 */
class ShardStoreTest {
    @TempDir
    Path dir;

    private Database open() {
        return Database.open(dir.resolve("db"), StorageOptions.defaults());
    }

    private static ShardStore shard(Database database) {
        return new ShardStore("n2", database, HashPartitioner.choose(false));
    }

    /** Stages rows {@code from} until {@code to} of {@code t(k)} as {@code load}. */
    private static long stage(ShardStore shard, String load, int from, int to) {
        try (Database source = Database.inMemoryWithin("source", shard.database())) {
            run(source, "CREATE TABLE t (k INT)");
            run(source, "INSERT INTO t SELECT * FROM (VALUES " + String.join(", ",
                    java.util.stream.IntStream.range(from, to).mapToObj(k -> "(" + k + ")").toList()) + ")");
            try (Session session = source.newLocalSession(); StatementResult result = session.execute("SELECT k FROM t", List.of())) {
                return shard.stage(load, "t", result.batches());
            }
        }
    }

    private static void run(Database database, String sql) {
        try (Session session = database.newLocalSession(); StatementResult result = session.execute(sql, List.of())) {
            result.updateCount();
        }
    }

    private static long count(Database database) {
        try (Session session = database.newLocalSession(); StatementResult result = session.execute("SELECT COUNT(*) FROM t", List.of())) {
            return ((Number) result.rows().get(0).get(0)).longValue();
        }
    }

    @Test
    void aLoadStagedBeforeTheShardDiedIsPublishedWhenItReplaysTheCommit() {
        String load = ClusterCommand.newLoad("n1");
        try (Database database = open()) {
            run(database, "CREATE TABLE t (k INT)");
            assertEquals(100, stage(shard(database), load, 0, 100));
            assertEquals(0, count(database));
        } // the shard goes away before it applies the COMMIT
        try (Database database = open()) {
            ShardStore shard = shard(database);
            assertEquals(Set.of(load), database.catalog().stagedLoads());
            shard.publish(load, 100, 7);
            assertEquals(100, count(database));
            assertEquals(7, shard.appliedIndex());
            assertEquals(Set.of(), database.catalog().stagedLoads());
        }
    }

    @Test
    void aCommitWhoseStagingIsMissingFailsLoudlyAndStillAdvancesTheShard() {
        try (Database database = open()) {
            run(database, "CREATE TABLE t (k INT)");
            ShardStore shard = shard(database);
            shard.publish(ClusterCommand.newLoad("n1"), 0, 3); // no rows hashed to this shard: nothing to publish
            assertEquals(3, shard.appliedIndex());
            String lost = ClusterCommand.newLoad("n1");
            WarpException e = assertThrows(WarpException.class, () -> shard.publish(lost, 40, 4));
            assertEquals(SqlState.INTERNAL_ERROR, e.state());
            assertEquals("shard n2 published 0 rows of load " + lost + ", not the 40 it had staged: its part of the load is lost",
                    e.getMessage());
            assertEquals(4, shard.appliedIndex());
            shard.publish(ClusterCommand.newLoad("n1"), -1, 5); // a COMMIT of an older version, which does not say
            assertEquals(5, shard.appliedIndex());
        }
    }

    @Test
    void abortAndAbandonDropOnlyTheLoadsTheyName() {
        String aborted = ClusterCommand.newLoad("n1");
        String byN1 = ClusterCommand.newLoad("n1");
        String byN10 = ClusterCommand.newLoad("n10");
        String byN3 = ClusterCommand.newLoad("n3");
        try (Database database = open()) {
            run(database, "CREATE TABLE t (k INT)");
            ShardStore shard = shard(database);
            for (String load : List.of(aborted, byN1, byN10, byN3)) {
                stage(shard, load, 0, 10);
            }
            shard.discard(aborted, 8);
            assertEquals(8, shard.appliedIndex());
            shard.abandon("n1", 9);
            assertEquals(9, shard.appliedIndex());
            assertEquals(Set.of(byN10, byN3), database.catalog().stagedLoads());
            shard.abort(byN3);
            assertEquals(Set.of(byN10), database.catalog().stagedLoads());
            assertEquals(0, count(database));
        }
    }

    @Test
    void stagingsOfOneLoadFromSeveralSendersAtOnceAllArePublished() throws Exception {
        String load = ClusterCommand.newLoad("n1");
        try (Database database = open()) {
            run(database, "CREATE TABLE t (k INT)");
            ShardStore shard = shard(database);
            List<java.util.concurrent.CompletableFuture<Long>> senders = java.util.stream.IntStream.range(0, 4)
                    .mapToObj(s -> java.util.concurrent.CompletableFuture.supplyAsync(() -> stage(shard, load, s * 50, s * 50 + 50)))
                    .toList();
            assertEquals(200, senders.stream().mapToLong(java.util.concurrent.CompletableFuture::join).sum());
            shard.publish(load, 200, 3);
            assertEquals(200, count(database));
            try (Session session = database.newLocalSession();
                    StatementResult result = session.execute("SELECT COUNT(DISTINCT k), SUM(k) FROM t", List.of())) {
                assertEquals(List.of(200L, 19900L), result.rows().get(0).stream().map(v -> ((Number) v).longValue()).toList());
            }
        }
    }

    @Test
    void aStagingThatEndsAfterItsLoadWasAbortedLeavesNothing() {
        String load = ClusterCommand.newLoad("n1");
        try (Database database = open()) {
            run(database, "CREATE TABLE t (k INT)");
            ShardStore shard = shard(database);
            stage(shard, load, 0, 10);
            shard.abort(load); // the coordinator decided while another sender still staged
            WarpException late = assertThrows(WarpException.class, () -> stage(shard, load, 10, 20));
            assertEquals(SqlState.QUERY_CANCELED, late.state());
            assertEquals(Set.of(), database.catalog().stagedLoads());
            String aborted = ClusterCommand.newLoad("n1");
            shard.discard(aborted, 4); // by the log's ABORT, before any of its rows came
            assertThrows(WarpException.class, () -> stage(shard, aborted, 0, 10));
            assertEquals(Set.of(), database.catalog().stagedLoads());
            assertEquals(0, count(database));
        }
    }

    @Test
    void aLoadIsNamedByItsCoordinator() {
        String load = ClusterCommand.newLoad("node.a");
        assertTrue(load.startsWith("node.a."), load);
        assertEquals("node.a", ClusterCommand.coordinatorOf(load));
        assertEquals(Map.of("n1", 3L), ClusterCommand.commit("t", load, Map.of("n1", 3L)).shardRows());
        assertEquals(0, ClusterCommand.commit("t", load, Map.of("n1", 3L)).rowsStagedOn("n2"));
    }
}
