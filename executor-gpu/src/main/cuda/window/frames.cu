// Each sorted position's frame [start, end) inside its partition, by the rules of the CPU's
// FrameBounds: ROWS counts rows; RANGE without offsets (or for a NULL key) means the peer group;
// RANGE with offsets binary-searches the partition's non-NULL keys (one run: NULLs sort first or
// last) for the first key at least (start) or beyond (end) the row's key -/+ the offset,
// saturating. An end before its start makes the frame empty at its start.
#include "block.cuh"

using namespace warp;

// Bound kinds: the ordinals of io.warpdb.core.plan.WindowFrame.BoundKind.
constexpr int UNBOUNDED_PRECEDING = 0;
constexpr int PRECEDING = 1;
constexpr int CURRENT_ROW = 2;
constexpr int FOLLOWING = 3;
constexpr int UNBOUNDED_FOLLOWING = 4;

__device__ __forceinline__ long long clampTo(long long p, long long from, long long to) {
    return p < from ? from : p > to ? to : p;
}

// A ROWS bound of row i; past is 1 for the frame's end (exclusive), 0 for its start.
__device__ __forceinline__ long long rowsBound(int kind, long long offset, long long i, long long from, long long to,
                                               int past) {
    long long p;
    switch (kind) {
        case UNBOUNDED_PRECEDING: p = from; break;
        case PRECEDING: p = i - offset + past; break;
        case CURRENT_ROW: p = i + past; break;
        case FOLLOWING: p = i + (offset < to ? offset : to) + past; break;
        default: p = to; break;
    }
    return clampTo(p, from, to);
}

// A RANGE bound that does not look at key values.
__device__ __forceinline__ long long peerBound(int kind, long long from, long long to, long long peerFrom,
                                               long long peerTo, bool end) {
    if (kind == UNBOUNDED_PRECEDING) return from;
    if (kind == UNBOUNDED_FOLLOWING) return to;
    return end ? peerTo : peerFrom;
}

__device__ __forceinline__ long long saturatedAdd(long long a, long long b) {
    const long long sum = (long long)((unsigned long long)a + (unsigned long long)b);
    if (((a ^ sum) & (b ^ sum)) < 0) return a < 0 ? (long long)0x8000000000000000ull : 0x7fffffffffffffffll;
    return sum;
}

// A RANGE bound with an offset of row i (whose key is not NULL): the first position of
// [keysFrom, keysTo) whose key is at least (for the end: beyond) the target.
__device__ __forceinline__ long long rangeBound(int kind, long long offset, const long long* key, long long i,
                                                long long keysFrom, long long keysTo, bool end) {
    const long long target = saturatedAdd(key[i], kind == PRECEDING ? -offset : offset);
    long long lo = keysFrom, hi = keysTo;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (end ? key[mid] <= target : key[mid] < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// rangeKey: the single order key by sorted position, negated when descending (null unless the
// frame is RANGE with an offset); rangeValid: its validity (null: no NULLs).
extern "C" __global__ void __launch_bounds__(BLOCK)
frame_bounds(const int* partId, const int* partStarts, const int* peerId, const int* peerStarts, int n, int rows,
             int lowerKind, long long lowerOffset, int upperKind, long long upperOffset, const long long* rangeKey,
             const unsigned char* rangeValid, int* start, int* end) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int part = partId[i], peer = peerId[i];
        const long long from = partStarts[part], to = partStarts[part + 1];
        const long long peerFrom = peerStarts[peer], peerTo = peerStarts[peer + 1];
        long long s, e;
        if (rows) {
            s = rowsBound(lowerKind, lowerOffset, i, from, to, 0);
            e = rowsBound(upperKind, upperOffset, i, from, to, 1);
        } else if (rangeKey != nullptr && (rangeValid == nullptr || rangeValid[i])) {
            // The NULL keys of the partition are one peer group at its first or last position.
            long long keysFrom = from, keysTo = to;
            if (rangeValid != nullptr && !rangeValid[from]) keysFrom = peerStarts[peerId[from] + 1];
            if (rangeValid != nullptr && !rangeValid[to - 1]) keysTo = peerStarts[peerId[to - 1]];
            const bool lowerOff = lowerKind == PRECEDING || lowerKind == FOLLOWING;
            const bool upperOff = upperKind == PRECEDING || upperKind == FOLLOWING;
            s = lowerOff ? rangeBound(lowerKind, lowerOffset, rangeKey, i, keysFrom, keysTo, false)
                         : peerBound(lowerKind, from, to, peerFrom, peerTo, false);
            e = upperOff ? rangeBound(upperKind, upperOffset, rangeKey, i, keysFrom, keysTo, true)
                         : peerBound(upperKind, from, to, peerFrom, peerTo, true);
        } else {
            s = peerBound(lowerKind, from, to, peerFrom, peerTo, false);
            e = peerBound(upperKind, from, to, peerFrom, peerTo, true);
        }
        start[i] = (int)s;
        end[i] = (int)(e > s ? e : s);
    }
}

// The RANGE key by sorted position: the order column's values (INTEGER/DATE: width 4; BIGINT, TIMESTAMP,
// DECIMAL: 8) of the sorted rows, negated for a descending key so that they ascend either way.
extern "C" __global__ void __launch_bounds__(BLOCK)
range_keys(const void* values, const unsigned char* valid, int width, const int* sorted, int n, int descending,
           long long* keys, unsigned char* keyValid) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int row = sorted[i];
        const long long v = width == 4 ? (long long)((const int*)values)[row] : ((const long long*)values)[row];
        keys[i] = descending ? (long long)(0ull - (unsigned long long)v) : v;
        if (keyValid != nullptr) keyValid[i] = valid[row];
    }
}

// out[0] = the longest frame (atomicMax; the host zeroes it), which sizes the sparse tables.
extern "C" __global__ void __launch_bounds__(BLOCK)
longest_frame(const int* start, const int* end, int n, int* out) {
    int longest = 0;
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        longest = max(longest, end[i] - start[i]);
    }
    for (int o = 16; o > 0; o >>= 1) longest = max(longest, __shfl_down_sync(0xffffffffu, longest, o));
    if ((threadIdx.x & 31) == 0) atomicMax(out, longest);
}
