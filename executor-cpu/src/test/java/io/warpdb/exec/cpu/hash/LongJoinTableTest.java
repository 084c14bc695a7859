package io.warpdb.exec.cpu.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Every probe finds exactly the build rows of its key, in build order, against a map built the
 * obvious way: unique and duplicate keys, skipped rows on both sides, one partition and several
 * (indexed on threads), and sizes around the table's growth points.
 */
class LongJoinTableTest {
    @Test
    void probesFindTheBuildRowsOfTheirKeyInBuildOrder() {
        Random random = new Random(7);
        for (int rows : new int[] {0, 1, 31, 32, 33, 1000, LongJoinTable.MIN_PARTITIONED_ROWS + 5_000}) {
            for (boolean unique : new boolean[] {true, false}) {
                long[] keys = new long[rows];
                boolean[] skip = new boolean[rows];
                for (int i = 0; i < rows; i++) {
                    // Unique: a permutation-like spread including negatives; else keys drawn from a range a third of the rows.
                    keys[i] = unique ? (i * 2_654_435_761L) ^ -i : random.nextInt(Math.max(1, rows / 3)) - 5;
                    skip[i] = !unique && random.nextInt(10) == 0;
                }
                for (int parallelism : new int[] {1, 3}) {
                    check(keys, skip, parallelism, random);
                }
            }
        }
    }

    @Test
    void keysDenseInTheirRangeFindTheirRows() {
        Random random = new Random(11);
        for (int rows : new int[] {1, 31, 32, 33, 1000, LongJoinTable.MIN_PARTITIONED_ROWS + 5_000}) {
            // Unique keys spread over 1x and 3x their count (indexed directly), then with one duplicate (hashed).
            for (int spread : new int[] {1, 3}) {
                for (boolean duplicate : new boolean[] {false, true}) {
                    long[] keys = new long[rows];
                    boolean[] skip = new boolean[rows];
                    for (int i = 0; i < rows; i++) {
                        keys[i] = (long) i * spread - 17;
                        skip[i] = random.nextInt(10) == 0;
                    }
                    for (int i = rows - 1; i > 0; i--) {
                        int j = random.nextInt(i + 1);
                        long t = keys[i];
                        keys[i] = keys[j];
                        keys[j] = t;
                    }
                    if (duplicate && rows > 1) {
                        keys[rows - 1] = keys[0];
                        skip[rows - 1] = false;
                        skip[0] = false;
                    }
                    check(keys, skip, 2, random);
                }
            }
        }
    }

    private static void check(long[] keys, boolean[] skip, int parallelism, Random random) {
        LongJoinTable table = LongJoinTable.build(keys, skip, parallelism,
                (count, task) -> IntStream.range(0, count).parallel().forEach(task));
        Map<Long, List<Integer>> expected = new HashMap<>();
        for (int row = 0; row < keys.length; row++) {
            if (!skip[row]) {
                expected.computeIfAbsent(keys[row], k -> new ArrayList<>()).add(row);
            }
        }
        int probes = keys.length + 50;
        long[] probeKeys = new long[probes];
        boolean[] probeSkip = new boolean[probes];
        for (int i = 0; i < probes; i++) {
            probeKeys[i] = i < keys.length ? keys[random.nextInt(keys.length)] : random.nextLong();
            probeSkip[i] = random.nextInt(20) == 0;
        }
        int[] starts = new int[probes];
        int[] counts = new int[probes];
        table.probe(probeKeys, probeSkip, starts, counts);
        for (int i = 0; i < probes; i++) {
            List<Integer> want = probeSkip[i] ? List.of() : expected.getOrDefault(probeKeys[i], List.of());
            List<Integer> got = new ArrayList<>();
            for (int p = starts[i]; p < starts[i] + counts[i]; p++) {
                got.add(table.buildRow(p));
            }
            assertEquals(want, got, "probe " + i + " of key " + probeKeys[i] + " over " + keys.length + " rows");
        }
    }
}
