package io.warpdb.core.value;

/**
 * The powers of ten that fit a long, 10^0 to 10^18: the factors between the scales of exact
 * values (a DECIMAL holds value * 10^scale in 64 bits), exact and as doubles. The GPU
 * interpreter computes the same powers (vm.cuh {@code pow10ll}; VmConstantsTest checks its bound).
 */
public final class Pow10 {
    /** The largest n whose 10^n fits a long. */
    public static final int MAX_EXPONENT = 18;

    private static final long[] EXACT = new long[MAX_EXPONENT + 1];
    private static final double[] DOUBLE = new double[MAX_EXPONENT + 1];

    static {
        long p = 1;
        for (int i = 0; i <= MAX_EXPONENT; i++) {
            EXACT[i] = p;
            DOUBLE[i] = p;
            p *= 10;
        }
    }

    private Pow10() {
    }

    /** 10^n for n in 0..{@link #MAX_EXPONENT}. */
    public static long of(int n) {
        return EXACT[n];
    }

    /** 10^n as a double (exact: every power up to 10^18 is one), n in 0..{@link #MAX_EXPONENT}. */
    public static double asDouble(int n) {
        return DOUBLE[n];
    }
}
