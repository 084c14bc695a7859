// The functions whose value is the argument's value at one sorted position (the CPU's
// PickedValueEvaluator): each position first gets its source position (or NULL, or LAG's and
// LEAD's default), then pick_values gathers them. MIN and MAX find their source with a sparse
// table over the sorted positions: level j holds, for each position p, the position of the
// extreme non-NULL value of [p, p + 2^j); a frame [s, e) is the better of two overlapping blocks
// of level floor(log2(e - s)), so each row costs O(1) whatever its frame, and the table
// O(rows x log(longest frame)) to build. Values compare by their ordered keys: one per value, or
// a wide DECIMAL's two (upper word, then lower), compared in that order.
#include "block.cuh"
#include "../sort/ordered_key.cuh"

using namespace warp;

constexpr int SOURCE_NULL = -1;
constexpr int SOURCE_DEFAULT = -2;

// LAG and LEAD: the position offset away (negative for LAG) within the partition, else the default.
extern "C" __global__ void __launch_bounds__(BLOCK)
offset_sources(const int* partId, const int* partStarts, int n, long long offset, int* source) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int part = partId[i];
        // Wraps as Java's long does (an offset near Long.MAX lands outside the partition).
        const long long s = (long long)((unsigned long long)i + (unsigned long long)offset);
        source[i] = s >= partStarts[part] && s < partStarts[part + 1] ? (int)s : SOURCE_DEFAULT;
    }
}

// FIRST_VALUE and NTH_VALUE (fromEnd 0: the place `offset` from the frame's start) and
// LAST_VALUE (fromEnd 1: the frame's last row); NULL outside the frame.
extern "C" __global__ void __launch_bounds__(BLOCK)
frame_sources(const int* start, const int* end, int n, int fromEnd, long long offset, int* source) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const long long s = fromEnd ? (long long)end[i] - 1 : (long long)start[i] + offset;
        source[i] = s >= start[i] && s < end[i] ? (int)s : SOURCE_NULL;
    }
}

// The argument's value as ordered keys by sorted position (numKeys per position, the most
// significant first; the first key's validity is the value's), and level 0 of the table: the
// position itself, or none (-1) where the value is NULL.
extern "C" __global__ void __launch_bounds__(BLOCK)
extreme_leaves(const KeySource* sources, int numKeys, const int* sorted, int n, u64* keys, int* level0) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int row = sorted[i];
        const bool isValid = keyValid(sources[0], row);
        for (int k = 0; k < numKeys; k++) keys[i * numKeys + k] = isValid ? orderedKey(sources[k], row) : 0;
        level0[i] = isValid ? (int)i : -1;
    }
}

// The better of two positions (-1: none): the smaller value for MIN, the larger for MAX, and on
// equal values the later position, as the CPU's monotonic deque keeps it.
__device__ __forceinline__ int better(int a, int b, const u64* keys, int numKeys, bool max) {
    if (a < 0) return b;
    if (b < 0) return a;
    for (int k = 0; k < numKeys; k++) {
        const u64 ka = keys[(long long)a * numKeys + k], kb = keys[(long long)b * numKeys + k];
        if (ka != kb) return (max ? ka > kb : ka < kb) ? a : b;
    }
    return a > b ? a : b;
}

// Level j from level j - 1 (half = 2^(j-1)): blocks past the end keep their shorter extent.
extern "C" __global__ void __launch_bounds__(BLOCK)
extreme_level(const int* previous, const u64* keys, int numKeys, int n, int half, int max, int* level) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int a = previous[i];
        level[i] = i + half < n ? better(a, previous[i + half], keys, numKeys, max != 0) : a;
    }
}

// The source of each frame's MIN or MAX from the table (levels, each n positions long).
extern "C" __global__ void __launch_bounds__(BLOCK)
extreme_sources(const int* table, const u64* keys, int numKeys, const int* start, const int* end, int n, int max, int* source) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int s = start[i], length = end[i] - s;
        if (length <= 0) {
            source[i] = SOURCE_NULL;
            continue;
        }
        const int j = 31 - __clz(length);
        const int* level = table + (long long)j * n;
        source[i] = better(level[s], level[end[i] - (1 << j)], keys, numKeys, max != 0);
    }
}

// out[i] = the argument at sorted position source[i] (values are by input row: sorted maps
// positions to rows), NULL for SOURCE_NULL, the default for SOURCE_DEFAULT: a constant
// (defaultMode 1; a wide one's upper word in defaultHigh), the default column at the same
// position (2), or NULL (0). width: 1, 4, 8 or 16 (a wide DECIMAL: lower word, then upper).
extern "C" __global__ void __launch_bounds__(BLOCK)
pick_values(const void* values, const unsigned char* valid, int width, const int* sorted, const int* source, int n,
            int defaultMode, long long defaultConstant, long long defaultHigh, const void* defaultValues,
            const unsigned char* defaultValid, void* out, unsigned char* outValid) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int s = source[i];
        const void* from = nullptr;
        const unsigned char* fromValid = nullptr;
        long long row = 0;
        long long value = 0;
        long long valueHigh = 0;
        bool isValid = false;
        if (s >= 0) {
            from = values;
            fromValid = valid;
            row = sorted[s];
        } else if (s == SOURCE_DEFAULT && defaultMode == 2) {
            from = defaultValues;
            fromValid = defaultValid;
            row = sorted[i];
        } else if (s == SOURCE_DEFAULT && defaultMode == 1) {
            value = defaultConstant;
            valueHigh = defaultHigh;
            isValid = true;
        }
        if (from != nullptr) {
            isValid = fromValid == nullptr || fromValid[row] != 0;
            if (width == 16) {
                const longlong2 wide = ((const longlong2*)from)[row];
                value = wide.x;
                valueHigh = wide.y;
            } else if (width == 8) {
                value = ((const long long*)from)[row];
            } else if (width == 4) {
                value = ((const int*)from)[row];
            } else {
                value = ((const unsigned char*)from)[row];
            }
        }
        if (!isValid) {
            value = 0;
            valueHigh = 0;
        }
        if (width == 16) ((longlong2*)out)[i] = make_longlong2(value, valueHigh);
        else if (width == 8) ((long long*)out)[i] = value;
        else if (width == 4) ((int*)out)[i] = (int)value;
        else ((unsigned char*)out)[i] = (unsigned char)value;
        outValid[i] = isValid ? 1 : 0;
    }
}
