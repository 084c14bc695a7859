// Equi-join by hashing (one GPU, as in section 3.3 of the repartitioned-join paper): the build
// side's rows go into an open-addressing table of (hash, row id) entries; each probe row walks
// it twice, first counting its output rows, then, at offsets scanned from the counts
// (sort/scan.cu), writing (probe row, build row) pairs. Keys are compared as ordered keys
// (sort/ordered_key.cuh), which the host sets up so that equal SQL values give equal words on
// both sides. Rows with a NULL key are never inserted and never match.
#include "block.cuh"
#include "hash.cuh"
#include "../sort/ordered_key.cuh"

using namespace warp;

// A slot holds the hash's upper 32 bits above the build row id; all ones is never an entry
// because row ids are below 2^31.
constexpr u64 EMPTY_SLOT = ~0ull;
constexpr u64 HASH_BITS = 0xffffffff00000000ull;
constexpr u64 ROW_BITS = 0x00000000ffffffffull;

// What a probe row outputs; must match io.warpdb.exec.gpu.join.GpuHashJoin.
constexpr int MODE_INNER = 0;  // one row per match
constexpr int MODE_LEFT = 1;   // one row per match, or one with no build row (id -1)
constexpr int MODE_SEMI = 2;   // the probe row once when it matches
constexpr int MODE_ANTI = 3;   // the probe row once when it matches nothing

// The hash of a row's keys; false when one of them is NULL (the row can match nothing).
__device__ __forceinline__ bool rowHash(const KeySource* keys, int numKeys, long long row, u64& hash) {
    u64 h = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < numKeys; k++) {
        if (!keyValid(keys[k], row)) return false;
        h = fmix64(h ^ orderedKey(keys[k], row));
    }
    hash = h;
    return true;
}

// Calls visit(build row) for each build row whose keys equal the probe row's, in table order,
// until visit returns false. Ends at the first empty slot: the table is at most half full.
template <typename Visit>
__device__ __forceinline__ void forEachMatch(const KeySource* probeKeys, const KeySource* buildKeys, int numKeys,
                                             long long probeRow, u64 hash, const u64* slots, u64 mask, Visit visit) {
    const u64 tag = hash & HASH_BITS;
    for (u64 s = hash & mask;; s = (s + 1) & mask) {
        const u64 entry = slots[s];
        if (entry == EMPTY_SLOT) return;
        if ((entry & HASH_BITS) != tag) continue;
        const long long buildRow = (long long)(entry & ROW_BITS);
        bool equal = true;
        for (int k = 0; k < numKeys && equal; k++) {
            equal = orderedKey(probeKeys[k], probeRow) == orderedKey(buildKeys[k], buildRow);
        }
        if (equal && !visit((int)buildRow)) return;
    }
}

// Inserts every build row without a NULL key. The table (mask + 1 slots, at least twice the
// build rows) starts all EMPTY_SLOT; entries are unique, so a failed CAS always means "taken".
extern "C" __global__ void __launch_bounds__(BLOCK)
build_table(const KeySource* keys, int numKeys, int rows, u64* slots, u64 mask) {
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < rows; row += (long long)gridDim.x * BLOCK) {
        u64 hash;
        if (!rowHash(keys, numKeys, row, hash)) continue;
        const u64 entry = (hash & HASH_BITS) | (u64)row;
        for (u64 s = hash & mask;; s = (s + 1) & mask) {
            if (atomicCAS(&slots[s], EMPTY_SLOT, entry) == EMPTY_SLOT) break;
        }
    }
}

// outputRows[row] = the rows probe row `row` outputs in `mode`; *total (zeroed by the host)
// gets their sum in 64 bits, so that the host can refuse results of 2^31 rows or more before
// the 32-bit scan.
extern "C" __global__ void __launch_bounds__(BLOCK)
probe_count(const KeySource* probeKeys, const KeySource* buildKeys, int numKeys, int rows, const u64* slots, u64 mask,
            int mode, unsigned* outputRows, unsigned long long* total) {
    const bool firstMatchOnly = mode == MODE_SEMI || mode == MODE_ANTI;
    u64 sum = 0;
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < rows; row += (long long)gridDim.x * BLOCK) {
        unsigned matches = 0;  // below 2^31: at most one per build row
        u64 hash;
        if (rowHash(probeKeys, numKeys, row, hash)) {
            forEachMatch(probeKeys, buildKeys, numKeys, row, hash, slots, mask, [&](int) {
                matches++;
                return !firstMatchOnly;
            });
        }
        unsigned out;
        switch (mode) {
            case MODE_INNER: out = matches; break;
            case MODE_LEFT: out = matches > 0 ? matches : 1u; break;
            case MODE_SEMI: out = matches > 0 ? 1u : 0u; break;
            default: out = matches == 0 ? 1u : 0u; break;
        }
        outputRows[row] = out;
        sum += out;
    }
    // Every thread of the block leaves the loop, so whole warps reduce.
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31) == 0 && sum != 0) atomicAdd(total, sum);
}

// Writes the output rows of each probe row at offsets[row] .. offsets[row + 1] (the exclusive
// scan of probe_count's outputRows): probeIds always, buildIds for INNER and LEFT (-1 where a
// LEFT row matched nothing). The walk is the one probe_count made, so it finds the same matches.
extern "C" __global__ void __launch_bounds__(BLOCK)
probe_write(const KeySource* probeKeys, const KeySource* buildKeys, int numKeys, int rows, const u64* slots, u64 mask,
            int mode, const unsigned* offsets, int* probeIds, int* buildIds) {
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < rows; row += (long long)gridDim.x * BLOCK) {
        const unsigned at = offsets[row];
        const unsigned count = offsets[row + 1] - at;
        if (count == 0) continue;
        if (mode == MODE_SEMI || mode == MODE_ANTI) {
            probeIds[at] = (int)row;
            continue;
        }
        unsigned written = 0;
        u64 hash;
        if (rowHash(probeKeys, numKeys, row, hash)) {
            forEachMatch(probeKeys, buildKeys, numKeys, row, hash, slots, mask, [&](int buildRow) {
                probeIds[at + written] = (int)row;
                buildIds[at + written] = buildRow;
                written++;
                return written < count;
            });
        }
        if (mode == MODE_LEFT && written == 0) {
            probeIds[at] = (int)row;
            buildIds[at] = -1;
        }
    }
}
