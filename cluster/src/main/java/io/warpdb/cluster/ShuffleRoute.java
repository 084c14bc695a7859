package io.warpdb.cluster;

import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/**
 * Who sends a shard's rows to whom in the two-level shuffle (seed 000 section 5), given each
 * shard's group (its host; shards in shard order): a row bound for shard P first goes, within
 * the sender's group, to the shard whose local rank (its position among its group's shards) is
 * P's, modulo the group's size, its <em>forwarder</em> (hop 1); the forwarder sends it on to P,
 * across groups (hop 2). So each shard talks across groups only to the shards of its own rank,
 * one per group, as the seed's GPUs talk over NVLink within a machine and over one InfiniBand
 * rail between machines. The seed crosses machines first; crossing last keeps the compressed hop
 * the one between machines all the same, and lets a forwarder send each row straight to its shard.
 */
final class ShuffleRoute {
    private final List<Integer> groups;

    /** {@code groups}: each shard's group number, in shard order. */
    ShuffleRoute(List<Integer> groups) {
        this.groups = List.copyOf(groups);
    }

    /** The shards of {@code group}, in shard order. */
    List<Integer> members(int group) {
        return IntStream.range(0, groups.size()).filter(s -> groups.get(s) == group).boxed().toList();
    }

    /** The shards in {@code shard}'s group: those it sends rows to in hop 1, and that send it rows in hop 1. */
    List<Integer> groupOf(int shard) {
        return members(groups.get(shard));
    }

    private int rank(int shard) {
        return groupOf(shard).indexOf(shard);
    }

    /** The shard of {@code group} that forwards rows bound for {@code target}. */
    int forwarder(int group, int target) {
        List<Integer> members = members(group);
        return members.get(rank(target) % members.size());
    }

    /** The shards {@code forwarder} sends rows to in hop 2 (itself included): those it forwards for. */
    List<Integer> targets(int forwarder) {
        int group = groups.get(forwarder);
        return IntStream.range(0, groups.size()).filter(t -> forwarder(group, t) == forwarder).boxed().toList();
    }

    /** The shards that send {@code target} rows in hop 2: its forwarder in every group, in shard order. */
    List<Integer> senders(int target) {
        return IntStream.range(0, groups.size()).filter(s -> targets(s).contains(target)).boxed().toList();
    }

    /** For every shard, the position among {@code outboxes} (shard numbers) of the one its rows go to next; -1 for none. */
    static int[] positions(List<Integer> outboxes, int shards, IntUnaryOperator next) {
        int[] position = new int[shards];
        for (int t = 0; t < shards; t++) {
            position[t] = outboxes.indexOf(next.applyAsInt(t));
        }
        return position;
    }
}
