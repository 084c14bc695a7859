package io.warpdb.exec.cpu.hash;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;
import io.warpdb.core.value.Pow10;
import io.warpdb.exec.cpu.column.Column;
import java.util.Arrays;

/**
 * Turns the values of a key column into longs that are equal exactly when the SQL values are
 * equal, so that hash tables work on longs only: exact numbers at a common scale, doubles as
 * bits (with -0.0 folded into 0.0), strings as {@link StringDictionary.Builder} codes (never dictionary codes),
 * DATE and BOOLEAN as they are. A key with a wide DECIMAL on either side is a builder code too: of
 * its 128-bit value at the common scale written as eight chars ({@link #wideKey}), which
 * {@link #wideKeyHigh} and {@link #wideKeyLow} read back.
 */
public final class KeyEncoder {
    private enum Form { RAW, RESCALED, DOUBLE_BITS, STRING_ID, WIDE_ID }

    private static final int UNRESOLVED = -2;

    private final Form form;
    /** RESCALED: digits to add to reach the scale shared with the other side of a join. */
    private final int scaleUp;
    private final StringDictionary.Builder strings;
    /** Whether unseen strings get new ids (grouping, join build side) or are unmatchable (join probe side). */
    private final boolean addStrings;
    /** Code -> id for the last dictionary seen, resolved lazily. */
    private StringDictionary cachedDictionary;
    private int[] cachedIds;
    /** The ids shared by the encoders of a parallel aggregation's workers (then {@link #strings} is null); else null. */
    private final GroupKeyStrings shared;

    private KeyEncoder(Form form, int scaleUp, StringDictionary.Builder strings, boolean addStrings, GroupKeyStrings shared) {
        this.form = form;
        this.scaleUp = scaleUp;
        this.strings = strings;
        this.addStrings = addStrings;
        this.shared = shared;
    }

    /** For a GROUP BY key or a DISTINCT argument: values of one type. */
    public static KeyEncoder forGrouping(DataType type, StringDictionary.Builder strings) {
        return forEquality(type, type, strings, true);
    }

    /**
     * For a string GROUP BY key of a parallel aggregation: the workers' encoders share the ids
     * of {@code strings} (see {@link GroupKeyStrings}).
     */
    public static KeyEncoder forGrouping(GroupKeyStrings strings) {
        return new KeyEncoder(Form.STRING_ID, 0, null, true, strings);
    }

    /**
     * For one side of an equi-join key whose other side has type {@code other}; the build side
     * adds strings to {@code strings} (shared by both sides), the probe side only looks them up.
     */
    public static KeyEncoder forJoin(DataType own, DataType other, StringDictionary.Builder strings, boolean buildSide) {
        return forEquality(own, other, strings, buildSide);
    }

    /**
     * Whether an equi-join of a {@code probe} key with a {@code build} key encodes both sides as
     * the values they hold (no rescaling, no dictionary ids), so that a probe column's raw values
     * can be tested against the build's keys.
     */
    public static boolean joinsAsStored(DataType probe, DataType build) {
        return forEquality(probe, build, null, false).form == Form.RAW && forEquality(build, probe, null, false).form == Form.RAW;
    }

    private static KeyEncoder forEquality(DataType own, DataType other, StringDictionary.Builder strings, boolean addStrings) {
        TypeKind a = own.kind();
        TypeKind b = other.kind();
        if (a.isString() && b.isString()) {
            return new KeyEncoder(Form.STRING_ID, 0, strings, addStrings, null);
        }
        if (a.isNumeric() && b.isNumeric()) {
            if (a == TypeKind.DOUBLE || b == TypeKind.DOUBLE) {
                return new KeyEncoder(Form.DOUBLE_BITS, 0, null, false, null);
            }
            int scaleUp = Math.max(Decimals.scaleOf(own), Decimals.scaleOf(other)) - Decimals.scaleOf(own);
            if (own.isWideDecimal() || other.isWideDecimal()) {
                return new KeyEncoder(Form.WIDE_ID, scaleUp, strings, addStrings, null);
            }
            return new KeyEncoder(scaleUp == 0 ? Form.RAW : Form.RESCALED, scaleUp, null, false, null);
        }
        if (a == b) {
            return new KeyEncoder(Form.RAW, 0, null, false, null);
        }
        throw new WarpException(SqlState.DATATYPE_MISMATCH, "cannot match " + own.sqlName() + " with " + other.sqlName());
    }

    /**
     * Writes the key of each non-NULL row into {@code out}. Rows whose value cannot equal any
     * value of the other side (a string the build side never had, a number too large for the
     * shared scale) are flagged in {@code unmatchable}, which may be null when that cannot happen.
     */
    public void encode(Column c, long[] out, boolean[] unmatchable) {
        int rows = c.size();
        switch (form) {
            case RAW -> System.arraycopy(c.longs(), 0, out, 0, rows);
            case RESCALED -> {
                long factor = Pow10.of(scaleUp);
                long[] values = c.longs();
                for (int i = 0; i < rows; i++) {
                    long hi = Math.multiplyHigh(values[i], factor);
                    out[i] = values[i] * factor;
                    if (hi != (out[i] >> 63)) {
                        unmatchable[i] = true;
                    }
                }
            }
            case DOUBLE_BITS -> {
                double[] values = c.toDoubles();
                for (int i = 0; i < rows; i++) {
                    out[i] = values[i] == 0 ? 0 : Double.doubleToLongBits(values[i]);
                }
            }
            case WIDE_ID -> encodeWide(c, out, unmatchable);
            case STRING_ID -> {
                long[] codes = c.longs();
                if (shared != null && shared.adopts(c.dictionary())) {
                    System.arraycopy(codes, 0, out, 0, rows);
                    return;
                }
                int[] ids = idsFor(c.dictionary());
                for (int i = 0; i < rows; i++) {
                    if (c.isNull(i)) {
                        continue;
                    }
                    int code = (int) codes[i];
                    if (ids[code] == UNRESOLVED) {
                        ids[code] = resolve(c.dictionary().get(code));
                    }
                    out[i] = ids[code];
                    if (ids[code] < 0) {
                        unmatchable[i] = true;
                    }
                }
            }
        }
    }

    private void encodeWide(Column c, long[] out, boolean[] unmatchable) {
        long[] lows = c.longs();
        long[] highs = c.highs();
        Int128 v = new Int128();
        for (int i = 0; i < out.length; i++) {
            if (c.isNull(i)) {
                continue;
            }
            if (highs != null) {
                v.set(highs[i], lows[i]);
            } else {
                v.set(lows[i]);
            }
            try {
                v.scaleUp(scaleUp);
            } catch (WarpException tooLarge) {
                unmatchable[i] = true; // beyond 128 bits at the shared scale: equal to nothing on the other side
                continue;
            }
            int id = resolve(wideKey(v.high, v.low));
            out[i] = id;
            if (id < 0) {
                unmatchable[i] = true;
            }
        }
    }

    /** A 128-bit value as eight chars of 16 bits each, high to low: equal keys for equal values. */
    static String wideKey(long high, long low) {
        return new String(new char[] {(char) (high >>> 48), (char) (high >>> 32), (char) (high >>> 16), (char) high,
            (char) (low >>> 48), (char) (low >>> 32), (char) (low >>> 16), (char) low});
    }

    /** The high word of a {@link #wideKey}. */
    public static long wideKeyHigh(String key) {
        return word(key, 0);
    }

    /** The low word of a {@link #wideKey}. */
    public static long wideKeyLow(String key) {
        return word(key, 4);
    }

    private static long word(String key, int from) {
        long w = 0;
        for (int i = from; i < from + 4; i++) {
            w = w << 16 | key.charAt(i);
        }
        return w;
    }

    /**
     * The id of a string value. The builder may be shared by the encoders of several workers
     * (a join's build and probes); each value is resolved once per dictionary, so the lock is rare.
     */
    private int resolve(String value) {
        if (shared != null) {
            return shared.resolve(value);
        }
        synchronized (strings) {
            return addStrings ? strings.add(value) : strings.find(value);
        }
    }

    /**
     * The code -> id array of {@code dictionary}. A shared array is written by several workers
     * without locks: each writes the id the builder gives the code's string, the same for all, so
     * a worker that misses another's write only resolves the code again.
     */
    private int[] idsFor(StringDictionary dictionary) {
        if (dictionary != cachedDictionary) {
            cachedDictionary = dictionary;
            cachedIds = shared == null ? unresolved(dictionary) : shared.ids().computeIfAbsent(dictionary, KeyEncoder::unresolved);
        }
        return cachedIds;
    }

    private static int[] unresolved(StringDictionary dictionary) {
        int[] ids = new int[dictionary.size()];
        Arrays.fill(ids, UNRESOLVED);
        return ids;
    }
}
