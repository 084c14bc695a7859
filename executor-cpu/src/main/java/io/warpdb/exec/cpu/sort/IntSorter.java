package io.warpdb.exec.cpu.sort;

import java.util.function.IntConsumer;

/** A stable merge sort of int arrays (row numbers) by a comparator, without boxing; optionally on several threads. */
public final class IntSorter {
    private static final int INSERTION_SORT_MAX = 16;
    /** Values per thread below which sorting on fewer threads is faster than handing out work. */
    private static final int MIN_VALUES_PER_THREAD = 1 << 15;

    /** Compares two ints, e.g. the rows they number. */
    @FunctionalInterface
    public interface IntComparator {
        int compare(int a, int b);
    }

    /** Runs tasks 0 .. count - 1 at once and returns when all are done (the executor's workers). */
    @FunctionalInterface
    public interface Workers {
        void runAll(int count, IntConsumer task);
    }

    private IntSorter() {
    }

    public static void sort(int[] values, IntComparator comparator) {
        mergeSort(values.clone(), values, 0, values.length, comparator);
    }

    /**
     * As {@link #sort(int[], IntComparator)} on up to {@code threads} workers: equal runs are sorted
     * side by side, then merged pairwise, each level's merges side by side. Merges prefer the
     * left run on ties, so the result is as stable as the one-thread sort.
     */
    public static void sort(int[] values, IntComparator comparator, int threads, Workers workers) {
        int runs = Integer.highestOneBit(Math.max(1, Math.min(threads, values.length / MIN_VALUES_PER_THREAD)));
        if (runs == 1) {
            sort(values, comparator);
            return;
        }
        int[] bounds = new int[runs + 1];
        for (int r = 0; r <= runs; r++) {
            bounds[r] = (int) ((long) values.length * r / runs);
        }
        int[] scratch = values.clone();
        workers.runAll(runs, r -> mergeSort(scratch, values, bounds[r], bounds[r + 1], comparator));
        int[] src = values;
        int[] dst = scratch;
        for (int width = 1; width < runs; width *= 2) {
            int w = width;
            int[] from = src;
            int[] to = dst;
            workers.runAll(runs / (2 * w), m -> merge(from, to, bounds[2 * w * m], bounds[2 * w * m + w], bounds[2 * w * (m + 1)],
                    comparator));
            src = to;
            dst = from;
        }
        if (src != values) {
            System.arraycopy(src, 0, values, 0, values.length);
        }
    }

    /** Sorts {@code dst[from, to)}; on entry {@code src} holds the same values there and serves as scratch space. */
    private static void mergeSort(int[] src, int[] dst, int from, int to, IntComparator comparator) {
        if (to - from <= INSERTION_SORT_MAX) {
            for (int i = from + 1; i < to; i++) {
                int value = dst[i];
                int j = i;
                while (j > from && comparator.compare(dst[j - 1], value) > 0) {
                    dst[j] = dst[j - 1];
                    j--;
                }
                dst[j] = value;
            }
            return;
        }
        int middle = (from + to) >>> 1;
        // Sort both halves into src, then merge them into dst.
        mergeSort(dst, src, from, middle, comparator);
        mergeSort(dst, src, middle, to, comparator);
        if (comparator.compare(src[middle - 1], src[middle]) <= 0) {
            System.arraycopy(src, from, dst, from, to - from);
            return;
        }
        merge(src, dst, from, middle, to, comparator);
    }

    /** Merges the sorted runs {@code src[from, middle)} and {@code src[middle, to)} into {@code dst[from, to)}, left first on ties. */
    private static void merge(int[] src, int[] dst, int from, int middle, int to, IntComparator comparator) {
        for (int i = from, p = from, q = middle; i < to; i++) {
            dst[i] = q >= to || p < middle && comparator.compare(src[p], src[q]) <= 0 ? src[p++] : src[q++];
        }
    }
}
