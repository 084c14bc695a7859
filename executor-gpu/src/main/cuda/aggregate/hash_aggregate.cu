// Hash group-by (Karnagel et al.): murmur3's 64-bit finalizer over the key columns, open
// addressing with linear probing in a table of at least twice the expected groups (fill factor
// 50%). A slot holds the row id of its group's first row, claimed with atomicCAS; a probing row
// compares its keys with that row's. Aggregates accumulate into per-slot arrays with atomics;
// exact sums are 128-bit (carry from the low word into the high word).
#include <stdint.h>

namespace {

constexpr int BLOCK = 256;

// Keep in step with io.warpdb.exec.gpu.aggregate.AggregateKind.
enum AggKind : int {
    AGG_COUNT_STAR = 0, AGG_COUNT = 1, AGG_SUM_EXACT = 2, AGG_SUM_DOUBLE = 3,
    AGG_MIN = 4, AGG_MAX = 5, AGG_MIN_DOUBLE = 6, AGG_MAX_DOUBLE = 7
};

struct Columns {
    const unsigned long long* values;  // addresses
    const unsigned long long* valid;   // validity byte arrays or 0
    const int* widths;                 // 1, 4 or 8
};

__device__ __forceinline__ bool isValid(const Columns& c, int col, long long row) {
    unsigned long long v = c.valid[col];
    return v == 0 || ((const unsigned char*)v)[row] != 0;
}

__device__ __forceinline__ long long load(const Columns& c, int col, long long row) {
    unsigned long long base = c.values[col];
    int w = c.widths[col];
    if (w == 8) return ((const long long*)base)[row];
    if (w == 4) return ((const int*)base)[row];
    return ((const unsigned char*)base)[row];
}

__device__ __forceinline__ unsigned long long fmix64(unsigned long long k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

__device__ __forceinline__ unsigned long long hashKeys(const Columns& keys, int numKeys, long long row) {
    unsigned long long h = 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < numKeys; k++) {
        unsigned long long v = isValid(keys, k, row) ? (unsigned long long)load(keys, k, row) : 0x6E756C6CULL;
        h = fmix64(h ^ (v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2)));
    }
    return h;
}

// NULL keys equal each other (one group), as GROUP BY requires.
__device__ __forceinline__ bool sameKeys(const Columns& keys, int numKeys, long long a, long long b) {
    for (int k = 0; k < numKeys; k++) {
        bool va = isValid(keys, k, a), vb = isValid(keys, k, b);
        if (va != vb || (va && load(keys, k, a) != load(keys, k, b))) return false;
    }
    return true;
}

// Doubles as unsigned integers in Double.compare order (-0.0 < 0.0, NaN last), so that MIN and MAX
// are plain integer atomics; the host maps them back.
__device__ __forceinline__ unsigned long long orderedBits(long long bits) {
    return (unsigned long long)bits ^ ((unsigned long long)(bits >> 63) | 0x8000000000000000ULL);
}

}  // namespace

// table: tableSize ints, -1 when empty; mask = tableSize - 1. Per aggregate a: kinds[a],
// argColumn[a] (index into the argument columns), and accumulator arrays acc0[a] (count), acc1[a]
// (low word / double sum / min / max), acc2[a] (high word), each tableSize long.
extern "C" __global__ void __launch_bounds__(BLOCK)
hash_aggregate(int numKeys, const unsigned long long* keyValues, const unsigned long long* keyValid, const int* keyWidths,
               int numAggs, const int* kinds, const int* argColumn,
               const unsigned long long* argValues, const unsigned long long* argValid, const int* argWidths,
               const unsigned long long* acc0, const unsigned long long* acc1, const unsigned long long* acc2,
               int* table, unsigned long long mask, long long rows) {
    const Columns keys{keyValues, keyValid, keyWidths};
    const Columns args{argValues, argValid, argWidths};
    const long long stride = (long long)gridDim.x * BLOCK;
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < rows; row += stride) {
        unsigned long long slot = hashKeys(keys, numKeys, row) & mask;
        while (true) {
            int owner = ((volatile int*)table)[slot];
            if (owner < 0) {
                owner = atomicCAS(&table[slot], -1, (int)row);
                if (owner < 0) break;  // this row opened the group
            }
            if (sameKeys(keys, numKeys, row, owner)) break;
            slot = (slot + 1) & mask;
        }
        for (int a = 0; a < numAggs; a++) {
            const int kind = kinds[a];
            unsigned long long* count = (unsigned long long*)acc0[a];
            if (kind == AGG_COUNT_STAR) {
                atomicAdd(&count[slot], 1ULL);
                continue;
            }
            const int col = argColumn[a];
            if (!isValid(args, col, row)) continue;
            atomicAdd(&count[slot], 1ULL);
            if (kind == AGG_COUNT) continue;
            long long v = load(args, col, row);
            if (kind == AGG_SUM_EXACT) {
                unsigned long long* low = (unsigned long long*)acc1[a];
                unsigned long long* high = (unsigned long long*)acc2[a];
                unsigned long long before = atomicAdd(&low[slot], (unsigned long long)v);
                unsigned long long carry = before + (unsigned long long)v < before ? 1ULL : 0ULL;
                unsigned long long add = (unsigned long long)(v >> 63) + carry;  // sign extension plus carry
                if (add != 0) atomicAdd(&high[slot], add);
            } else if (kind == AGG_SUM_DOUBLE) {
                atomicAdd(&((double*)acc1[a])[slot], __longlong_as_double(v));
            } else if (kind == AGG_MIN) {
                atomicMin(&((long long*)acc1[a])[slot], v);
            } else if (kind == AGG_MAX) {
                atomicMax(&((long long*)acc1[a])[slot], v);
            } else if (kind == AGG_MIN_DOUBLE) {
                atomicMin(&((unsigned long long*)acc1[a])[slot], orderedBits(v));
            } else {
                atomicMax(&((unsigned long long*)acc1[a])[slot], orderedBits(v));
            }
        }
    }
}

// Sets n 64-bit words to value (initial MIN/MAX accumulators).
extern "C" __global__ void fill64(unsigned long long* out, unsigned long long value, long long n) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        out[i] = value;
    }
}
