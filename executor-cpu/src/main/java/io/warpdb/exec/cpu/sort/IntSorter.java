package io.warpdb.exec.cpu.sort;

import io.warpdb.exec.cpu.TaskRunner;
import java.util.Arrays;

/** A stable merge sort of int arrays (row numbers) by a comparator, without boxing; optionally on several threads. */
public final class IntSorter {
    private static final int INSERTION_SORT_MAX = 16;
    /** Values per thread below which sorting on fewer threads is faster than handing out work. */
    private static final int MIN_VALUES_PER_THREAD = 1 << 15;

    /** A run this many times longer than the limit picks its first values with a heap rather than sorting them all. */
    private static final int SELECT_RATIO = 8;

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

    /**
     * The first {@code limit} of {@code values} in sorted order (all of them when there are fewer),
     * as the stable one-thread sort places them; {@code values} serves as scratch space. On
     * several workers, equal runs are sorted side by side, each keeping only its first
     * {@code limit} values (no others can be among the overall first), then neighbouring runs are
     * merged pairwise, each level's merges side by side, left first on ties (so the result stays
     * stable) and stopping after {@code limit} values.
     */
    public static int[] sortFirst(int[] values, int limit, IntComparator comparator, int threads, TaskRunner workers) {
        return sortFirst(values, limit, comparator, threads, workers, MIN_VALUES_PER_THREAD);
    }

    /** As {@link #sortFirst(int[], int, IntComparator, int, Workers)}; tests lower {@code minValuesPerThread} to split small inputs. */
    static int[] sortFirst(int[] values, int limit, IntComparator comparator, int threads, TaskRunner workers,
            int minValuesPerThread) {
        int n = values.length;
        int kept = Math.min(limit, n);
        int runs = Math.max(1, Math.min(threads, n / minValuesPerThread));
        if (runs == 1) {
            sort(values, comparator);
            return kept == n ? values : Arrays.copyOf(values, kept);
        }
        // Run r starts at start[r] in src and holds length[r] sorted values.
        int[] start = new int[runs];
        int[] length = new int[runs];
        for (int r = 0; r < runs; r++) {
            start[r] = (int) ((long) n * r / runs);
            length[r] = (int) ((long) n * (r + 1) / runs) - start[r];
        }
        int[] scratch = values.clone();
        int[] src = values;
        int[] dst = scratch;
        workers.runAll(runs, r -> {
            if ((long) limit * SELECT_RATIO < length[r]) {
                selectFirst(values, start[r], start[r] + length[r], limit, comparator);
            } else {
                mergeSort(scratch, values, start[r], start[r] + length[r], comparator);
            }
            length[r] = Math.min(length[r], limit);
        });
        // Each level merges neighbours (2m, 2m + 1) into src's space of run 2m; an odd last run moves along.
        for (int count = runs; count > 1; count = (count + 1) / 2) {
            int[] in = src;
            int[] out = dst;
            int pairs = count / 2;
            workers.runAll((count + 1) / 2, m -> {
                int left = 2 * m;
                if (m == pairs) {
                    System.arraycopy(in, start[left], out, start[left], length[left]);
                } else {
                    int right = left + 1;
                    int end = merge(in, start[left], length[left], start[right], length[right], out, start[left], limit,
                            comparator);
                    length[left] = end - start[left];
                }
            });
            for (int m = 0; m < (count + 1) / 2; m++) {
                start[m] = start[2 * m];
                length[m] = length[2 * m];
            }
            src = out;
            dst = in;
        }
        return src == values && length[0] == n ? values : Arrays.copyOfRange(src, start[0], start[0] + length[0]);
    }

    /**
     * Moves the first {@code limit} of {@code values[from, to)} in sorted order to the front of that
     * range, without sorting the rest: a heap keeps the best so far, the worst on top. Ties are
     * broken by position, which picks and orders them as the stable sort does.
     */
    private static void selectFirst(int[] values, int from, int to, int limit, IntComparator comparator) {
        IntComparator byPosition = (p, q) -> {
            int c = comparator.compare(values[p], values[q]);
            return c != 0 ? c : Integer.compare(p, q);
        };
        int[] heap = new int[limit];
        int size = 0;
        for (int p = from; p < to && limit > 0; p++) {
            if (size < limit) {
                int i = size++;
                for (int parent; i > 0 && byPosition.compare(heap[parent = (i - 1) / 2], p) < 0; i = parent) {
                    heap[i] = heap[parent];
                }
                heap[i] = p;
            } else if (byPosition.compare(p, heap[0]) < 0) {
                int i = 0;
                for (int child; (child = 2 * i + 1) < size; i = child) {
                    if (child + 1 < size && byPosition.compare(heap[child + 1], heap[child]) > 0) {
                        child++;
                    }
                    if (byPosition.compare(heap[child], p) <= 0) {
                        break;
                    }
                    heap[i] = heap[child];
                }
                heap[i] = p;
            }
        }
        sort(heap, byPosition);
        for (int i = 0; i < size; i++) {
            heap[i] = values[heap[i]];
        }
        System.arraycopy(heap, 0, values, from, size);
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
        merge(src, from, middle - from, middle, to - middle, dst, from, to - from, comparator);
    }

    /**
     * Merges the sorted runs of {@code src} at {@code left} and {@code right} into {@code dst} at
     * {@code at}, left first on ties, stopping after {@code limit} values; returns the end in {@code dst}.
     */
    private static int merge(int[] src, int left, int leftLength, int right, int rightLength, int[] dst, int at, int limit,
            IntComparator comparator) {
        int p = left;
        int pEnd = left + leftLength;
        int q = right;
        int qEnd = right + rightLength;
        int end = at + (int) Math.min(limit, (long) leftLength + rightLength);
        for (int i = at; i < end; i++) {
            dst[i] = q >= qEnd || p < pEnd && comparator.compare(src[p], src[q]) <= 0 ? src[p++] : src[q++];
        }
        return end;
    }
}
