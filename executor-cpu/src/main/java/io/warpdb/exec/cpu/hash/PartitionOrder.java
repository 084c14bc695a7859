package io.warpdb.exec.cpu.hash;

/**
 * Items ordered by their hash partition (a counting sort), so that the worker of one partition
 * reads only its items: partition p's are {@code items[start[p] .. start[p + 1])}, ascending.
 */
public final class PartitionOrder {
    private final int[] start;
    private final int[] items;

    private PartitionOrder(int[] start, int[] items) {
        this.start = start;
        this.items = items;
    }

    /** Orders items {@code 0 .. partitionOf.length) by {@code partitionOf[i]}; items whose partition is -1 are left out. */
    public static PartitionOrder of(int[] partitionOf, int parts) {
        int[] start = new int[parts + 1];
        for (int part : partitionOf) {
            start[part + 1]++;
        }
        start[0] = 0; // the left-out items counted there
        for (int p = 0; p < parts; p++) {
            start[p + 1] += start[p];
        }
        int[] items = new int[start[parts]];
        int[] next = start.clone();
        for (int i = 0; i < partitionOf.length; i++) {
            if (partitionOf[i] >= 0) {
                items[next[partitionOf[i]]++] = i;
            }
        }
        return new PartitionOrder(start, items);
    }

    /** The partition of a 32-bit hash among {@code parts}, from its high bits (hash tables' slots use the low ones). */
    public static int partition(int hash, int parts) {
        return (int) (((hash & 0xffffffffL) * parts) >>> 32);
    }

    /** The first position of partition p's items. */
    public int start(int p) {
        return start[p];
    }

    /** One past the last position of partition p's items. */
    public int end(int p) {
        return start[p + 1];
    }

    /** The item at position i. */
    public int item(int i) {
        return items[i];
    }

    /** The items, in partition order (positions as {@link #start}/{@link #end} give them). */
    public int[] items() {
        return items;
    }
}
