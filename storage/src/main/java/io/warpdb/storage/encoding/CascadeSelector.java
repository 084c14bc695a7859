package io.warpdb.storage.encoding;

import io.warpdb.core.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Chooses how a chunk's values are stored, in the manner of the seed paper's selector (section
 * 4): sample the column, try every {@link Cascade#CANDIDATES candidate cascade} on the sample and
 * keep the smallest; then weigh that against {@link Plain} and, for numbers, {@link Dictionary},
 * and take the smallest of all. Strings are always dictionary-encoded; only their codes' cascade
 * is chosen.
 *
 * <p>The sample is {@value #WINDOWS} contiguous windows of {@value #WINDOW_SIZE} values spread
 * evenly over the chunk (64K values); a chunk no larger than that is analyzed whole. Windows are
 * analyzed one by one, so the seams between them do not look like jumps to Delta. Cascade sizes
 * are exact on the sample, scaled to the chunk; plain is exact; a dictionary's entries are exact
 * (distinct values cannot be estimated from contiguous windows: on sorted data each window sees
 * only its own few) and its codes are a cascade on the sample, scaled. Ties go to the simpler
 * encoding (plain, then fewer layers), which also decodes faster.
 */
final class CascadeSelector {
    static final int WINDOW_SIZE = 8192;
    static final int WINDOWS = 8;
    /** Above this many distinct values a numeric dictionary is not tried (codes of 16+ bits rarely pay). */
    static final int MAX_DICTIONARY_ENTRIES = 1 << 16;

    private CascadeSelector() {
    }

    /** An encoding with its estimated size in bytes. */
    record Estimate<E extends ValueEncoding>(E encoding, long bytes) {
    }

    /** Contiguous windows of a chunk's values, and how many values the chunk has per sampled value. */
    record Sample(long[][] windows, double scale) {
        static Sample of(long[] values) {
            if (values.length <= WINDOW_SIZE * WINDOWS) {
                return new Sample(new long[][] {values}, 1);
            }
            long[][] windows = new long[WINDOWS][];
            for (int w = 0; w < WINDOWS; w++) {
                int start = (int) ((long) w * (values.length - WINDOW_SIZE) / (WINDOWS - 1));
                windows[w] = Arrays.copyOfRange(values, start, start + WINDOW_SIZE);
            }
            return new Sample(windows, values.length / (double) (WINDOWS * WINDOW_SIZE));
        }

        /** Each window replaced by {@code f(window)}, e.g. its dictionary codes. */
        Sample map(UnaryOperator<long[]> f) {
            return new Sample(Arrays.stream(windows).map(f).toArray(long[][]::new), scale);
        }
    }

    /** Every value encoding the selector can choose for a column of {@code type}. */
    static List<ValueEncoding> candidates(DataType type) {
        List<ValueEncoding> candidates = new ArrayList<>();
        if (!type.kind().isString()) {
            candidates.add(Plain.INSTANCE);
            candidates.addAll(Cascade.CANDIDATES);
        }
        for (Cascade codes : Cascade.CANDIDATES) {
            candidates.add(new Dictionary(codes));
        }
        return candidates;
    }

    static ValueEncoding choose(ColumnValues column) {
        Sample sample = Sample.of(column.values());
        if (column.dictionary() != null) {
            return new Dictionary(bestCascade(sample).encoding());
        }
        Estimate<? extends ValueEncoding> best = new Estimate<>(Plain.INSTANCE, Plain.analyze(column));
        Estimate<Cascade> cascade = bestCascade(sample);
        if (cascade.bytes() < best.bytes()) {
            best = cascade;
        }
        // A bit per value is already as small as codes get.
        if (column.layout() != PhysicalLayout.BIT) {
            Estimate<Dictionary> dictionary = estimateDictionary(column, sample);
            if (dictionary != null && dictionary.bytes() < best.bytes()) {
                best = dictionary;
            }
        }
        return best.encoding();
    }

    /** The candidate cascade smallest on the sample, with its size scaled to the chunk. */
    static Estimate<Cascade> bestCascade(Sample sample) {
        Cascade best = null;
        long bestBytes = Long.MAX_VALUE;
        for (Cascade candidate : Cascade.CANDIDATES) {
            long bytes = 0;
            for (long[] window : sample.windows()) {
                bytes += candidate.analyze(window);
            }
            if (bytes < bestBytes) {
                best = candidate;
                bestBytes = bytes;
            }
        }
        return new Estimate<>(best, Math.round(bestBytes * sample.scale()));
    }

    /**
     * A numeric dictionary's size: its entries exactly (the chunk's distinct values are counted
     * in one pass, which stops early once there are too many), plus its codes' best cascade on the
     * sample, scaled. Null when the chunk has too many distinct values.
     */
    private static Estimate<Dictionary> estimateDictionary(ColumnValues column, Sample sample) {
        long[] entries = DistinctValues.sortedUpTo(column.values(), MAX_DICTIONARY_ENTRIES);
        if (entries == null) {
            return null;
        }
        Estimate<Cascade> codes = bestCascade(sample.map(window -> Dictionary.codes(window, entries)));
        return new Estimate<>(new Dictionary(codes.encoding()), Dictionary.analyzeEntries(entries) + codes.bytes());
    }
}
