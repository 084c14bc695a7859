// Radix partitioning of one chunk of rows by the hash of their join keys (seed 002 section
// 3.3.1, the "local prefix sum" variant: every chunk is partitioned on its own). A partition id
// is a field of the 32-bit key hash; it is reached in passes of at most 8 bits (one digit), least
// significant digit first, each pass stable: a block histogram per (digit, block), their
// exclusive scan (bucket-major, so that a digit's rows keep block order), and a scatter that
// ranks equal digits within a block in row order. After the passes the row order is sorted by
// partition id, rows of a partition in their input order.
#include "block.cuh"
#include "hash.cuh"
#include "../sort/ordered_key.cuh"

using namespace warp;

constexpr int MAX_DIGIT_BITS = 8;
constexpr int MAX_BUCKETS = 1 << MAX_DIGIT_BITS;
constexpr unsigned long long HASH_SEED = 0x9E3779B97F4A7C15ull;

// hashes[row]: the keys of the row mixed into 32 bits, equal for equal SQL keys (the KeySources
// make them equal across the two join inputs). A NULL key is hashed by nullKeys: 0 (grouped)
// mixes in a constant, so that the rows of a group with NULL keys share a partition (GROUP BY);
// NULL_KEYS_SPREAD hashes the row's index instead: a NULL join key matches nothing, so its row
// may sit in any partition, and spreading them keeps one partition from collecting all of them.
constexpr int NULL_KEYS_SPREAD = 1;
constexpr unsigned long long NULL_KEY = 0xC2B2AE3D27D4EB4Full;

extern "C" __global__ void __launch_bounds__(BLOCK)
hash_keys(const KeySource* keys, int keyCount, int rows, int nullKeys, unsigned* hashes) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < rows; i += (long long)gridDim.x * BLOCK) {
        unsigned long long h = HASH_SEED;
        bool spread = false;
        for (int k = 0; k < keyCount; k++) {
            unsigned long long key;
            if (keyValid(keys[k], i)) {
                key = orderedKey(keys[k], i);
            } else if (nullKeys == NULL_KEYS_SPREAD) {
                spread = true;
                break;
            } else {
                key = NULL_KEY;
            }
            h = fmix64(h ^ (key + HASH_SEED + (h << 6) + (h >> 2)));
        }
        if (spread) h = fmix64(HASH_SEED ^ (unsigned long long)i);
        hashes[i] = (unsigned)(h ^ (h >> 32));
    }
}

__device__ __forceinline__ int digitOf(const unsigned* hashes, int row, int shift, unsigned mask) {
    return (int)((hashes[row] >> shift) & mask);
}

// counts[digit * gridDim.x + block]: rows of block's range [block * rowsPerBlock, ...) whose
// digit (bits [shift, shift + digitBits) of the hash) is digit; rows are read through order
// (null: row i is row i).
extern "C" __global__ void __launch_bounds__(BLOCK)
digit_counts(const unsigned* hashes, const int* order, int rows, int shift, int digitBits, int rowsPerBlock, unsigned* counts) {
    __shared__ unsigned local[MAX_BUCKETS];
    const int buckets = 1 << digitBits;
    const unsigned mask = (unsigned)buckets - 1;
    for (int b = threadIdx.x; b < buckets; b += BLOCK) local[b] = 0;
    __syncthreads();
    const long long start = (long long)blockIdx.x * rowsPerBlock;
    const long long end = min((long long)rows, start + rowsPerBlock);
    for (long long i = start + threadIdx.x; i < end; i += BLOCK) {
        const int row = order == nullptr ? (int)i : order[i];
        atomicAdd(&local[digitOf(hashes, row, shift, mask)], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < buckets; b += BLOCK) counts[(long long)b * gridDim.x + blockIdx.x] = local[b];
}

// Writes the block's rows to outOrder at offsets[digit * gridDim.x + block] onwards (the
// exclusive scan of digit_counts), stably: BLOCK rows at a time, each row's rank among the equal
// digits before it is its rank in its warp (__match_any_sync) plus the counts of earlier warps.
extern "C" __global__ void __launch_bounds__(BLOCK)
digit_scatter(const unsigned* hashes, const int* order, int rows, int shift, int digitBits, int rowsPerBlock,
              const unsigned* offsets, int* outOrder) {
    __shared__ unsigned cursor[MAX_BUCKETS];
    __shared__ unsigned stepTotal[MAX_BUCKETS];
    __shared__ unsigned warpCounts[WARPS][MAX_BUCKETS + 1];
    const int buckets = 1 << digitBits;
    const unsigned mask = (unsigned)buckets - 1;
    const int warpId = threadIdx.x >> 5;
    for (int b = threadIdx.x; b < buckets; b += BLOCK) cursor[b] = offsets[(long long)b * gridDim.x + blockIdx.x];
    const long long start = (long long)blockIdx.x * rowsPerBlock;
    const long long end = min((long long)rows, start + rowsPerBlock);
    for (long long base = start; base < end; base += BLOCK) {
        for (int j = threadIdx.x; j < WARPS * (MAX_BUCKETS + 1); j += BLOCK) (&warpCounts[0][0])[j] = 0;
        __syncthreads();
        const long long i = base + threadIdx.x;
        const bool valid = i < end;
        const int row = valid ? (order == nullptr ? (int)i : order[i]) : -1;
        // Rows past the end take digit `buckets`, which no row has: they rank among themselves only.
        const int digit = valid ? digitOf(hashes, row, shift, mask) : buckets;
        const unsigned peers = __match_any_sync(0xffffffffu, digit);
        const int rank = __popc(peers & laneMaskLt());
        if (valid && rank == 0) warpCounts[warpId][digit] = __popc(peers);
        __syncthreads();
        for (int b = threadIdx.x; b < buckets; b += BLOCK) {
            unsigned running = 0;
            for (int w = 0; w < WARPS; w++) {
                const unsigned c = warpCounts[w][b];
                warpCounts[w][b] = running;
                running += c;
            }
            stepTotal[b] = running;
        }
        __syncthreads();
        if (valid) outOrder[cursor[digit] + warpCounts[warpId][digit] + rank] = row;
        __syncthreads();
        for (int b = threadIdx.x; b < buckets; b += BLOCK) cursor[b] += stepTotal[b];
        __syncthreads();
    }
}

// sizes[p] += rows whose partition id (bits [shift, shift + log2(mask + 1)) of the hash) is p;
// sizes starts zeroed.
extern "C" __global__ void __launch_bounds__(BLOCK)
partition_sizes(const unsigned* hashes, int rows, int shift, unsigned mask, unsigned* sizes) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < rows; i += (long long)gridDim.x * BLOCK) {
        atomicAdd(&sizes[(hashes[i] >> shift) & mask], 1u);
    }
}
