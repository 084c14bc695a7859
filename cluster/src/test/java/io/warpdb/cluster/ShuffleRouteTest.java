package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The two-level shuffle's routes: every row reaches its shard once, through a forwarder of the sender's group. */
class ShuffleRouteTest {
    @Test
    void twoGroupsOfTwoAndOne() {
        ShuffleRoute route = new ShuffleRoute(List.of(0, 0, 1));
        assertEquals(List.of(0, 1), route.groupOf(1));
        assertEquals(0, route.forwarder(0, 2), "shard 2 has local rank 0: shard 0 forwards for it in group 0");
        assertEquals(2, route.forwarder(1, 1), "group 1's one shard forwards for every shard");
        assertEquals(List.of(0, 2), route.targets(0));
        assertEquals(List.of(1), route.targets(1));
        assertEquals(List.of(0, 1, 2), route.targets(2));
        assertEquals(List.of(0, 2), route.senders(0));
        assertEquals(List.of(1, 2), route.senders(1));
        assertEquals(List.of(0, 2), route.senders(2));
    }

    @Test
    void everyRowReachesItsShardOnceAndCrossesGroupsOnlyAtItsRank() {
        for (List<Integer> groups : List.of(List.of(0, 0, 0, 1, 1, 1), List.of(0, 1, 0, 1, 2), List.of(0, 0, 0, 1), List.of(0, 1, 2))) {
            ShuffleRoute route = new ShuffleRoute(groups);
            for (int from = 0; from < groups.size(); from++) {
                for (int to = 0; to < groups.size(); to++) {
                    int forwarder = route.forwarder(groups.get(from), to);
                    assertEquals(groups.get(from), groups.get(forwarder), "hop 1 stays in the sender's group");
                    assertTrue(route.targets(forwarder).contains(to), groups + ": " + from + " -> " + forwarder + " -> " + to);
                    assertTrue(route.senders(to).contains(forwarder));
                }
            }
            for (int s = 0; s < groups.size(); s++) {
                int group = groups.get(s);
                for (int t : route.targets(s)) {
                    assertEquals(1, route.senders(t).stream().filter(f -> groups.get(f) == group).count(),
                            "one forwarder per group for shard " + t);
                }
            }
        }
    }
}
