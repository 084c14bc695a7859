// LSD radix sort of (64-bit key, int32 row id) pairs, 8 bits per pass: per-tile digit histograms,
// an exclusive scan over them in digit-major order (scan.cu), then a stable scatter. Plus the
// key preparation: the range of a key column and its order-preserving codes.
#include "block.cuh"
#include "ordered_key.cuh"

using namespace warp;

constexpr int RADIX = 256;
static_assert(BLOCK == RADIX, "one thread per digit in the scatter's count scan");

// Minimum and maximum ordered key of the non-NULL rows, NULL count and non-NULL count, merged
// into out[0..3] (which the host initialises to ~0, 0, 0, 0).
extern "C" __global__ void __launch_bounds__(BLOCK)
key_range(const void* values, const unsigned char* valid, const unsigned* ranks, int kind, int n, u64* out) {
    KeySource k{values, valid, ranks, kind};
    u64 lo = ~0ull, hi = 0, nulls = 0, valids = 0;
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
        if (keyValid(k, row)) {
            u64 key = orderedKey(k, row);
            lo = min(lo, key);
            hi = max(hi, key);
            valids++;
        } else {
            nulls++;
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        lo = min(lo, __shfl_down_sync(0xffffffffu, lo, o));
        hi = max(hi, __shfl_down_sync(0xffffffffu, hi, o));
        nulls += __shfl_down_sync(0xffffffffu, nulls, o);
        valids += __shfl_down_sync(0xffffffffu, valids, o);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMin(&out[0], lo);
        atomicMax(&out[1], hi);
        atomicAdd(&out[2], nulls);
        atomicAdd(&out[3], valids);
    }
}

constexpr int CODE_WITH_NULL = 0;  // NULL gets its own code at the NULLS FIRST/LAST end
constexpr int CODE_VALUE_ONLY = 1; // NULL rows get 0 (a more significant null-flag key follows)
constexpr int CODE_NULL_FLAG = 2;  // 0/1: whether the row sorts in the NULL group's place

// codes[i] = the sort code of row rows[i] (rows == null: row i): key - min, complemented within
// the range for DESC, shifted by one when NULLs come first.
extern "C" __global__ void __launch_bounds__(BLOCK)
sort_codes(const void* values, const unsigned char* valid, const unsigned* ranks, int kind, const int* rows, int n,
           u64 min, u64 range, int descending, int nullsFirst, int mode, u64* codes) {
    KeySource k{values, valid, ranks, kind};
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        long long row = rows == nullptr ? i : rows[i];
        bool isValid = keyValid(k, row);
        u64 code;
        if (mode == CODE_NULL_FLAG) {
            code = (isValid == (nullsFirst != 0)) ? 1 : 0;
        } else if (!isValid) {
            code = mode == CODE_VALUE_ONLY || nullsFirst ? 0 : range + 1;
        } else {
            u64 d = orderedKey(k, row) - min;
            if (descending) d = range - d;
            code = d + (mode == CODE_WITH_NULL && nullsFirst ? 1 : 0);
        }
        codes[i] = code;
    }
}

// counts[d * tiles + t] = number of keys of tile t whose digit at `shift` is d.
extern "C" __global__ void __launch_bounds__(BLOCK)
radix_histogram(const u64* keys, int n, int shift, unsigned* counts, int tiles) {
    __shared__ unsigned hist[RADIX];
    hist[threadIdx.x] = 0;
    __syncthreads();
    long long tileStart = (long long)blockIdx.x * TILE;
    for (int item = 0; item < ITEMS; item++) {
        long long i = tileStart + (long long)item * BLOCK + threadIdx.x;
        if (i < n) atomicAdd(&hist[(unsigned)(keys[i] >> shift) & (RADIX - 1)], 1u);
    }
    __syncthreads();
    counts[(long long)threadIdx.x * tiles + blockIdx.x] = hist[threadIdx.x];
}

// Stable scatter of one tile: `offsets` is the exclusive scan of the histogram counts, so
// offsets[d * tiles + t] is where tile t's first key of digit d goes. The tile is walked in
// chunks of BLOCK consecutive keys; within a chunk a key's rank among equal digits is the count
// in earlier warps plus its rank among its warp's peers (__match_any_sync).
extern "C" __global__ void __launch_bounds__(BLOCK)
radix_scatter(const u64* keysIn, const int* idsIn, u64* keysOut, int* idsOut, int n, int shift,
              const unsigned* offsets, int tiles) {
    __shared__ unsigned next[RADIX];               // position of the next key of each digit
    __shared__ unsigned warpCounts[WARPS][RADIX];  // per chunk: counts, then warp start positions
    const int warpId = threadIdx.x >> 5;
    next[threadIdx.x] = offsets[(long long)threadIdx.x * tiles + blockIdx.x];
    long long tileStart = (long long)blockIdx.x * TILE;
    for (int item = 0; item < ITEMS; item++) {
        for (int w = 0; w < WARPS; w++) warpCounts[w][threadIdx.x] = 0;
        __syncthreads();
        long long i = tileStart + (long long)item * BLOCK + threadIdx.x;
        bool live = i < n;
        u64 key = live ? keysIn[i] : 0;
        unsigned digit = live ? ((unsigned)(key >> shift) & (RADIX - 1)) : RADIX;  // RADIX: no digit
        unsigned peers = __match_any_sync(0xffffffffu, digit);
        unsigned rank = __popc(peers & laneMaskLt());
        if (live && rank == 0) warpCounts[warpId][digit] = __popc(peers);
        __syncthreads();
        {
            unsigned d = threadIdx.x, run = next[d];
            for (int w = 0; w < WARPS; w++) {
                unsigned c = warpCounts[w][d];
                warpCounts[w][d] = run;
                run += c;
            }
            next[d] = run;
        }
        __syncthreads();
        if (live) {
            unsigned pos = warpCounts[warpId][digit] + rank;
            keysOut[pos] = key;
            idsOut[pos] = idsIn[i];
        }
        __syncthreads();  // the next chunk clears warpCounts
    }
}

// keys[i] = codes[ids[i]]: a key column's codes in the current order of the rows.
extern "C" __global__ void __launch_bounds__(BLOCK)
gather_codes(const u64* codes, const int* ids, int n, u64* keys) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        keys[i] = codes[ids[i]];
    }
}
