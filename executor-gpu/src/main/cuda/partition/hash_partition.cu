// Hash partitioning of a table into P parts by the murmur3 hash of its keys, the first step of
// the repartitioned join (seed 000 section 3.1), with the CPU's rule (core's HashPartitioner):
// part = floorMod(murmur3_x86_32(key as 64 bits, seed 0), P), a NULL key to part 0, several keys
// combined as murmur3((previous << 32) | next). Two passes over the rows, each block owning one
// contiguous range of them:
//   part_counts: each block counts its rows per part in a shared-memory histogram, written to
//     counts[part * blocks + block]; their exclusive scan (part-major, so that a part's rows keep
//     block order) gives each block the row where its rows of each part start in the output;
//   part_scatter: each block reads its range a tile at a time, ranks every row within its part in
//     row order, scatters the tile into shared memory grouped by part, then copies each part's
//     run to its place in the output: consecutive threads write consecutive rows of one part, so
//     the writes coalesce (the shared-memory scatter of section 3.1). Every column (keys and
//     payloads, 1/4/8/16-byte values, validity bytes) moves this way.
// The result is stable: the rows of a part keep their input order, as the CPU's partitioner keeps them.
#include "block.cuh"

using namespace warp;

// Rows per thread per tile of the scatter: a tile is SCATTER_TILE rows, warp w owns the
// WARP_ROWS consecutive rows from w * WARP_ROWS, read 32 at a time (coalesced).
constexpr int SCATTER_ITEMS = 8;
constexpr int SCATTER_TILE = BLOCK * SCATTER_ITEMS;
constexpr int WARP_ROWS = 32 * SCATTER_ITEMS;

// How part_counts and part_scatter find a row's part (GpuHashPartitioner.KeyMode, same order).
enum KeyMode {
    KEY_LONG = 0,  // one 8-byte key column, hashed here
    KEY_INT = 1,   // one 4-byte key column, hashed here as its 64-bit value
    KEY_PART = 2   // the part of each row, from row_parts
};

// Kinds of row_parts' key columns (GpuHashPartitioner.KeyKind, same order).
enum KeyKind {
    KIND_LONG = 0,    // BIGINT, DECIMAL(<=18), TIMESTAMP, INTERVAL
    KIND_INT = 1,     // INTEGER, DATE
    KIND_BYTE = 2,    // BOOLEAN (0 or 1)
    KIND_DOUBLE = 3,  // DOUBLE: -0.0 as 0.0, every NaN as Java's canonical one
    KIND_WIDE = 4,    // DECIMAL(>18): low word, high word
    KIND_CODE = 5     // strings: the hash of each dictionary entry, by code
};

struct KeyColumn {
    long long kind;
    const void* values;
    const unsigned char* valid;  // null: no NULLs
    const int* codeHashes;       // KIND_CODE only
};

struct ScatterColumn {
    long long width;  // 1, 4, 8 or 16
    const void* in;
    void* out;
};

extern __shared__ uint4 dynamicShared[];

__device__ __forceinline__ unsigned rotl32(unsigned x, int r) {
    return (x << r) | (x >> (32 - r));
}

__device__ __forceinline__ unsigned murmurMix(unsigned h, unsigned k) {
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    k *= 0x1b873593u;
    h ^= k;
    h = rotl32(h, 13);
    return h * 5u + 0xe6546b64u;
}

// MurmurHash3 x86_32 with seed 0 of a 64-bit value as its two 32-bit halves, low first (core's Murmur3.hashLong).
__device__ __forceinline__ unsigned murmurLong(unsigned long long v) {
    unsigned h = murmurMix(0u, (unsigned)v);
    h = murmurMix(h, (unsigned)(v >> 32));
    h ^= 8u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// Java's Math.floorMod(hash as int, parts).
__device__ __forceinline__ int partOfHash(unsigned hash, int parts) {
    const int m = (int)hash % parts;
    return m < 0 ? m + parts : m;
}

__device__ __forceinline__ unsigned keyHash(const KeyColumn& key, long long row) {
    switch ((int)key.kind) {
        case KIND_LONG:
            return murmurLong(((const unsigned long long*)key.values)[row]);
        case KIND_INT:
            return murmurLong((unsigned long long)(long long)((const int*)key.values)[row]);
        case KIND_BYTE:
            return murmurLong(((const unsigned char*)key.values)[row]);
        case KIND_DOUBLE: {
            long long bits = ((const long long*)key.values)[row];
            const double d = __longlong_as_double(bits);
            if (d != d) {
                bits = 0x7ff8000000000000LL;
            } else if (d == 0.0) {
                bits = 0;
            }
            return murmurLong((unsigned long long)bits);
        }
        case KIND_WIDE: {
            const long long low = ((const long long*)key.values)[2 * row];
            const long long high = ((const long long*)key.values)[2 * row + 1];
            // Java: low ^ hashLong(high), the int hash widened with its sign
            return murmurLong((unsigned long long)(low ^ (long long)(int)murmurLong((unsigned long long)high)));
        }
        case KIND_CODE:
        default:
            return (unsigned)key.codeHashes[((const int*)key.values)[row]];
    }
}

// parts[row]: the part of each row by its keyCount keys (any kinds, combined), 0 where a key is NULL.
extern "C" __global__ void __launch_bounds__(BLOCK)
row_parts(const KeyColumn* keys, int keyCount, int rows, int parts, int* out) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < rows; i += (long long)gridDim.x * BLOCK) {
        unsigned hash = 0;
        bool null = false;
        for (int k = 0; k < keyCount; k++) {
            const KeyColumn key = keys[k];
            if (key.valid != nullptr && key.valid[i] == 0) {
                null = true;
                break;
            }
            const unsigned h = keyHash(key, i);
            hash = k == 0 ? h : murmurLong(((unsigned long long)hash << 32) | h);
        }
        out[i] = null ? 0 : partOfHash(hash, parts);
    }
}

// The part of row i as `mode` says (valid: the key's validity bytes, null without NULLs).
__device__ __forceinline__ int keyPart(int mode, const void* keys, const unsigned char* valid, long long i, int parts) {
    if (mode == KEY_PART) return ((const int*)keys)[i];
    if (valid != nullptr && valid[i] == 0) return 0;
    const unsigned long long v = mode == KEY_INT ? (unsigned long long)(long long)((const int*)keys)[i]
                                                 : ((const unsigned long long*)keys)[i];
    return partOfHash(murmurLong(v), parts);
}

// counts[part * gridDim.x + block]: the rows of the block's range [block * rowsPerBlock, ...)
// in each part. Dynamic shared memory: parts unsigned ints.
extern "C" __global__ void __launch_bounds__(BLOCK)
part_counts(int mode, const void* keys, const unsigned char* valid, int rows, int parts, long long rowsPerBlock,
            unsigned* counts) {
    unsigned* histogram = (unsigned*)dynamicShared;
    for (int p = threadIdx.x; p < parts; p += BLOCK) histogram[p] = 0;
    __syncthreads();
    const long long start = (long long)blockIdx.x * rowsPerBlock;
    const long long end = min((long long)rows, start + rowsPerBlock);
    for (long long base = start; base < end; base += BLOCK) {
        const long long i = base + threadIdx.x;
        // Rows past the end take part `parts`, which no row has, and count nowhere.
        const int part = i < end ? keyPart(mode, keys, valid, i, parts) : parts;
        // One atomic per distinct part in the warp: a hot key does not serialise 32 adds.
        const unsigned peers = __match_any_sync(0xffffffffu, part);
        if (part < parts && (peers & laneMaskLt()) == 0) atomicAdd(&histogram[part], (unsigned)__popc(peers));
    }
    __syncthreads();
    for (int p = threadIdx.x; p < parts; p += BLOCK) counts[(long long)p * gridDim.x + blockIdx.x] = histogram[p];
}

// starts[p] for p in [0, parts]: the first output row of part p (starts[parts]: all rows), from
// the exclusive scan of part_counts' counts (parts * blocks + 1 values, the total last).
extern "C" __global__ void __launch_bounds__(BLOCK)
part_starts(const unsigned* offsets, int parts, int blocks, unsigned* starts) {
    for (int p = blockIdx.x * BLOCK + threadIdx.x; p <= parts; p += gridDim.x * BLOCK) {
        starts[p] = offsets[(long long)p * blocks];
    }
}

// Moves one column of a tile: each row's value to its slot of the shared stage, then each slot's
// value to the output row of its part (cursor[part] onwards, in slot order).
template <typename T>
__device__ __forceinline__ void moveColumn(const T* in, T* out, long long tile, int tileRows, const int (&slot)[SCATTER_ITEMS],
                                           T* stage, const unsigned short* slotPart, const unsigned* tileStart,
                                           const unsigned* cursor) {
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
#pragma unroll
    for (int k = 0; k < SCATTER_ITEMS; k++) {
        const int local = warpId * WARP_ROWS + k * 32 + lane;
        if (local < tileRows) stage[slot[k]] = in[tile + local];
    }
    __syncthreads();
    for (int i = threadIdx.x; i < tileRows; i += BLOCK) {
        const int p = slotPart[i];
        out[(long long)cursor[p] + (i - (int)tileStart[p])] = stage[i];
    }
    __syncthreads();
}

// Writes the block's rows of every column to their parts: the block's rows of part p go to rows
// offsets[p * gridDim.x + block] onwards (the exclusive scan of part_counts), in row order.
// Dynamic shared memory (GpuHashPartitioner.scatterSharedBytes): the stage of SCATTER_TILE values
// of maxWidth bytes, then WARPS * parts + (parts + 1) + parts + WARPS unsigned ints, then
// SCATTER_TILE unsigned shorts (parts <= 65536).
extern "C" __global__ void __launch_bounds__(BLOCK)
part_scatter(int mode, const void* keys, const unsigned char* valid, int rows, int parts, long long rowsPerBlock,
             const unsigned* offsets, const ScatterColumn* columns, int columnCount, int maxWidth) {
    unsigned char* stage = (unsigned char*)dynamicShared;
    unsigned* warpRanks = (unsigned*)(stage + (long long)SCATTER_TILE * maxWidth);  // [warp][part]
    unsigned* tileStart = warpRanks + WARPS * parts;                                 // parts + 1
    unsigned* cursor = tileStart + parts + 1;                                        // parts
    unsigned* warpSums = cursor + parts;                                             // WARPS
    unsigned short* slotPart = (unsigned short*)(warpSums + WARPS);                  // SCATTER_TILE
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
    for (int p = threadIdx.x; p < parts; p += BLOCK) cursor[p] = offsets[(long long)p * gridDim.x + blockIdx.x];
    const long long start = (long long)blockIdx.x * rowsPerBlock;
    const long long end = min((long long)rows, start + rowsPerBlock);
    // The parts a thread owns in the scan over parts: [firstPart, lastPart).
    const int perThread = (parts + BLOCK - 1) / BLOCK;
    const int firstPart = min(parts, threadIdx.x * perThread);
    const int lastPart = min(parts, firstPart + perThread);
    for (long long tile = start; tile < end; tile += SCATTER_TILE) {
        const int tileRows = (int)min((long long)SCATTER_TILE, end - tile);
        for (int j = threadIdx.x; j < WARPS * parts; j += BLOCK) warpRanks[j] = 0;
        __syncthreads();
        // 1. Each row's part and its rank among the rows of its part that come before it in its
        //    warp's rows: the rank within its 32 (__match_any_sync) plus the warp's running count.
        int part[SCATTER_ITEMS];
        int slot[SCATTER_ITEMS];
        unsigned* ranks = warpRanks + warpId * parts;
#pragma unroll
        for (int k = 0; k < SCATTER_ITEMS; k++) {
            const int local = warpId * WARP_ROWS + k * 32 + lane;
            const bool in = local < tileRows;
            part[k] = in ? keyPart(mode, keys, valid, tile + local, parts) : parts;
            const unsigned peers = __match_any_sync(0xffffffffu, part[k]);
            const unsigned before = __popc(peers & laneMaskLt());
            slot[k] = in ? (int)(ranks[part[k]] + before) : 0;
            __syncwarp();
            if (in && before == 0) ranks[part[k]] += __popc(peers);
            __syncwarp();
        }
        __syncthreads();
        // 2. Per part, the warps' counts become exclusive offsets (warp order is row order), and
        //    the parts' totals are scanned over the parts into tileStart: part p's rows take
        //    slots [tileStart[p], tileStart[p + 1]) of the tile.
        unsigned mine = 0;
        for (int p = firstPart; p < lastPart; p++) {
            unsigned running = 0;
            for (int w = 0; w < WARPS; w++) {
                const unsigned c = warpRanks[w * parts + p];
                warpRanks[w * parts + p] = running;
                running += c;
            }
            tileStart[p] = running;
            mine += running;
        }
        unsigned inclusive = mine;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const unsigned t = __shfl_up_sync(0xffffffffu, inclusive, o);
            if (lane >= o) inclusive += t;
        }
        if (lane == 31) warpSums[warpId] = inclusive;
        __syncthreads();
        unsigned running = inclusive - mine;
        for (int w = 0; w < warpId; w++) running += warpSums[w];
        for (int p = firstPart; p < lastPart; p++) {
            const unsigned total = tileStart[p];
            tileStart[p] = running;
            running += total;
        }
        if (threadIdx.x == BLOCK - 1) tileStart[parts] = running;
        __syncthreads();
        // 3. Slots: the part's start in the tile + the earlier warps' rows of it + the rank.
#pragma unroll
        for (int k = 0; k < SCATTER_ITEMS; k++) {
            if (part[k] < parts) {
                slot[k] += (int)(tileStart[part[k]] + warpRanks[warpId * parts + part[k]]);
                slotPart[slot[k]] = (unsigned short)part[k];
            }
        }
        __syncthreads();
        // 4. Every column through the stage.
        for (int c = 0; c < columnCount; c++) {
            const ScatterColumn column = columns[c];
            switch ((int)column.width) {
                case 1:
                    moveColumn((const unsigned char*)column.in, (unsigned char*)column.out, tile, tileRows, slot,
                               (unsigned char*)stage, slotPart, tileStart, cursor);
                    break;
                case 4:
                    moveColumn((const unsigned*)column.in, (unsigned*)column.out, tile, tileRows, slot, (unsigned*)stage,
                               slotPart, tileStart, cursor);
                    break;
                case 8:
                    moveColumn((const unsigned long long*)column.in, (unsigned long long*)column.out, tile, tileRows, slot,
                               (unsigned long long*)stage, slotPart, tileStart, cursor);
                    break;
                default:
                    moveColumn((const uint4*)column.in, (uint4*)column.out, tile, tileRows, slot, (uint4*)stage, slotPart,
                               tileStart, cursor);
                    break;
            }
        }
        // 5. The block's next rows of each part follow this tile's.
        for (int p = threadIdx.x; p < parts; p += BLOCK) cursor[p] += tileStart[p + 1] - tileStart[p];
        __syncthreads();
    }
}
