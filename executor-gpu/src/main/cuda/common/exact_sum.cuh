// An exact SUM or AVG finished from its 64-bit unscaled sum by the rules of core's ExactSums and
// Decimals: rescaled to the result's scale (dropped digits round HALF_UP), averages rounded
// HALF_UP for a DECIMAL result and truncated for an integer one. Shared by the grouped
// aggregates' finish (aggregate/finish.cu) and the window frames' sums (window/frame_sum.cu).
#pragma once

namespace warp {

__device__ __constant__ long long POW10[19] = {1ll, 10ll, 100ll, 1000ll, 10000ll, 100000ll, 1000000ll, 10000000ll,
    100000000ll, 1000000000ll, 10000000000ll, 100000000000ll, 1000000000000ll, 10000000000000ll,
    100000000000000ll, 1000000000000000ll, 10000000000000000ll, 100000000000000000ll, 1000000000000000000ll};

// num / den rounded HALF_UP (away from zero at .5) or truncated; den > 0.
__device__ __forceinline__ __int128 divideRounded(__int128 num, __int128 den, bool halfUp) {
    __int128 q = num / den;
    if (halfUp) {
        __int128 r = num % den;
        if (r < 0) r = -r;
        if (2 * r >= den) q += num < 0 ? -1 : 1;
    }
    return q;
}

// The value of an exact SUM (average false) or AVG of n values whose sum fits 64 bits; false when
// the value needs the host (a scale shift beyond 18 digits, a result beyond 64 bits, or beyond
// 32 bits for an INTEGER result), which finishes it as the CPU does, error included.
__device__ __forceinline__ bool exactSumValue(long long sum, long long n, int inputScale, int resultScale, bool average,
                                              bool halfUp, bool fitInt32, long long& value) {
    const int shift = resultScale - inputScale;
    if (shift > 18 || shift < -18) return false;
    __int128 v;
    if (average) {
        __int128 num = sum, den = n;
        if (shift >= 0) num *= POW10[shift];
        else den *= POW10[-shift];
        v = divideRounded(num, den, halfUp);
    } else if (shift >= 0) {
        v = (__int128)sum * POW10[shift];
    } else {
        v = divideRounded(sum, POW10[-shift], true);  // dropped digits round HALF_UP, as Decimals.rescale
    }
    const long long lo = (long long)v;
    if ((__int128)lo != v) return false;
    if (fitInt32 && (long long)(int)lo != lo) return false;
    value = lo;
    return true;
}

}  // namespace warp
