// 128-bit exact numbers: the unscaled values of DECIMALs of 19 to 38 digits, as core's Int128
// computes them (two's complement, a value's words low then high). Every operation that can need
// more than 128 bits reports it instead of wrapping; whether a value fits its precision is
// fitsDigits's question. The interpreter (vm.cuh) keeps the words in two registers.
#pragma once
#include <stdint.h>

namespace warp {

typedef unsigned __int128 u128;

constexpr int MAX_WIDE_DIGITS = 38;

__device__ __forceinline__ __int128 wideOf(long long low, long long high) {
    return (__int128)(((u128)(unsigned long long)high << 64) | (unsigned long long)low);
}

__device__ __forceinline__ long long lowWord(__int128 x) { return (long long)x; }
__device__ __forceinline__ long long highWord(__int128 x) { return (long long)(x >> 64); }

// 10^n for n in 0..38 (below 2^127).
__device__ __forceinline__ u128 pow10wide(int n) {
    u128 p = 1;
    for (int i = 0; i < n; i++) p *= 10;
    return p;
}

// |x| as an unsigned 128-bit number (2^127 for the most negative value).
__device__ __forceinline__ u128 magnitude(__int128 x) { return x < 0 ? (u128)0 - (u128)x : (u128)x; }

// x + y, or false where the sum needs more than 128 bits (Int128.add).
__device__ __forceinline__ bool addWide(__int128 x, __int128 y, __int128& r) {
    r = (__int128)((u128)x + (u128)y);
    return !((x < 0) == (y < 0) && (r < 0) != (x < 0));
}

// x - y, or false where the difference needs more than 128 bits (Int128.subtract).
__device__ __forceinline__ bool subtractWide(__int128 x, __int128 y, __int128& r) {
    r = (__int128)((u128)x - (u128)y);
    return !((x < 0) != (y < 0) && (r < 0) != (x < 0));
}

// x * y, or false where the product needs more than 128 bits (Int128.multiply: -2^127 itself is kept).
__device__ __forceinline__ bool multiplyWide(__int128 x, __int128 y, __int128& r) {
    const bool negative = (x < 0) != (y < 0);
    const u128 a = magnitude(x), b = magnitude(y);
    const unsigned long long aHigh = (unsigned long long)(a >> 64), bHigh = (unsigned long long)(b >> 64);
    if (aHigh != 0 && bHigh != 0) return false;
    // One magnitude fits 64 bits: small * (bigHigh * 2^64 + bigLow).
    const unsigned long long small = aHigh == 0 ? (unsigned long long)a : (unsigned long long)b;
    const u128 big = aHigh == 0 ? b : a;
    const u128 low = (u128)small * (unsigned long long)big;
    const u128 cross = (u128)small * (unsigned long long)(big >> 64);
    if ((cross >> 64) != 0) return false;
    const u128 high = cross + (low >> 64);
    if ((high >> 64) != 0) return false;
    const u128 product = (high << 64) | (unsigned long long)low;
    const u128 limit = (u128)1 << 127;
    if (product > limit || (product == limit && !negative)) return false;
    r = negative ? (__int128)((u128)0 - product) : (__int128)product;
    return true;
}

// x * 10^digits, or false past 128 bits (Int128.scaleUp: beyond 38 digits only 0 stays).
__device__ __forceinline__ bool scaleUpWide(__int128 x, int digits, __int128& r) {
    if (digits > MAX_WIDE_DIGITS) {
        r = 0;
        return x == 0;
    }
    return multiplyWide(x, (__int128)pow10wide(digits), r);
}

// x / 10^digits rounded HALF_UP, half away from zero (Int128.scaleDownHalfUp; beyond 38 digits 0).
__device__ __forceinline__ __int128 scaleDownWide(__int128 x, int digits) {
    if (digits > MAX_WIDE_DIGITS) return 0;
    const u128 unit = pow10wide(digits);
    // The magnitude is at most 2^127, so adding half the unit stays below 2^128.
    const u128 q = (magnitude(x) + unit / 2) / unit;
    return x < 0 ? -(__int128)q : (__int128)q;
}

// Whether |x| < 10^digits (Int128.fitsPrecision).
__device__ __forceinline__ bool fitsDigits(__int128 x, int digits) { return magnitude(x) < pow10wide(digits); }

// The sign of x * 10^shift against y (shift > 0) or of x against y * 10^-shift (shift < 0): exact
// at any scales, as the CPU's WideValues.compare. A side brought to the other's scale that outgrows
// 128 bits is larger in magnitude than any 128-bit value, so its sign decides.
__device__ __forceinline__ int compareWide(__int128 x, __int128 y, int shift) {
    if (shift > 0) {
        if (!scaleUpWide(x, shift, x)) return x < 0 ? -1 : 1;
    } else if (shift < 0) {
        if (!scaleUpWide(y, -shift, y)) return y < 0 ? 1 : -1;
    }
    return x < y ? -1 : x > y ? 1 : 0;
}

// 10^n for n in 0..38 correctly rounded to doubles (the compiler rounds the literals), as Int128's table.
__device__ __constant__ double POW10_DOUBLE[MAX_WIDE_DIGITS + 1] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
    1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28,
    1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38};

// An unsigned 64-bit value rounded to the nearest double (Int128.unsignedToDouble).
__device__ __forceinline__ double unsignedToDouble(unsigned long long v) { return __ull2double_rn(v); }

// The unscaled value x at scale `scale` as a double, in Int128.toDouble's steps and roundings: the
// words in double arithmetic (a high word of -1 apart), divided by the double nearest 10^scale.
__device__ __forceinline__ double wideToDouble(__int128 x, int scale) {
    const long long high = highWord(x);
    const unsigned long long low = (unsigned long long)lowWord(x);
    const double value = high == -1 ? __dadd_rn(-unsignedToDouble(~low), -1.0)
                                    : __dadd_rn(unsignedToDouble(low), __dmul_rn(__ll2double_rn(high), 18446744073709551616.0));
    return __ddiv_rn(value, POW10_DOUBLE[scale]);
}

}  // namespace warp
