package io.warpdb.exec.cpu.sort;

/** A stable merge sort of int arrays (row numbers) by a comparator, without boxing. */
public final class IntSorter {
    private static final int INSERTION_SORT_MAX = 16;

    /** Compares two ints, e.g. the rows they number. */
    @FunctionalInterface
    public interface IntComparator {
        int compare(int a, int b);
    }

    private IntSorter() {
    }

    public static void sort(int[] values, IntComparator comparator) {
        mergeSort(values.clone(), values, 0, values.length, comparator);
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
        for (int i = from, p = from, q = middle; i < to; i++) {
            dst[i] = q >= to || p < middle && comparator.compare(src[p], src[q]) <= 0 ? src[p++] : src[q++];
        }
    }
}
