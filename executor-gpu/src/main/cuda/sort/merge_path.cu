// Merge path (Green, McColl and Bader; moderngpu's partitioning) over two ascending sequences of
// 64-bit keys: a kernel splits their merge into tiles of NV items along equally spaced
// diagonals; each block stages its tile in shared memory, and each thread finds its own diagonal
// there and merges VT items serially. On it: the vectorized sorted search (every key of one
// sequence located in the other) and the load-balancing search (every output row's segment),
// which the sort-merge join and the set operations build on; and the ordered keys of rows in a
// given order, the sequences they search.
#include "block.cuh"
#include "ordered_key.cuh"

using namespace warp;

constexpr int NT = 128;       // threads per search block
constexpr int VT = 7;         // merge items per thread
constexpr int NV = NT * VT;   // merge items per tile

// A sorted sequence in global memory, or the counting sequence 0, 1, 2, ... (load-balancing search).
struct Keys {
    const u64* values;  // null: the counting sequence
    __device__ __forceinline__ u64 operator[](long long i) const { return values == nullptr ? (u64)i : values[i]; }
};

// Whether a's element comes before b's in the merge: with lowerBound an element of a precedes
// equal elements of b (a <= b); otherwise equal elements of b come first (a < b).
__device__ __forceinline__ bool aFirst(u64 a, u64 b, bool lowerBound) {
    return lowerBound ? a <= b : a < b;
}

// How many of a's elements are among the first `diag` elements of the merge of a and b. The
// diagonal is 64-bit: both sequences may hold up to 2^31-1 elements, so their merge may not fit an int.
template <typename A, typename B>
__device__ __forceinline__ int mergePath(const A& a, int aCount, const B& b, int bCount, long long diag, bool lowerBound) {
    int lo = (int)max(0ll, diag - bCount);
    int hi = (int)min(diag, (long long)aCount);
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (aFirst(a[mid], b[diag - 1 - mid], lowerBound)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

// partitions[t] = a's share of the merge's first t * NV elements, t = 0 .. tiles (one thread each).
extern "C" __global__ void __launch_bounds__(NT)
merge_partitions(Keys a, int aCount, Keys b, int bCount, int lowerBound, int* partitions, int count) {
    const int t = blockIdx.x * NT + threadIdx.x;
    if (t >= count) return;
    const long long total = (long long)aCount + bCount;
    partitions[t] = mergePath(a, aCount, b, bCount, min((long long)t * NV, total), lowerBound != 0);
}

// A sorted sequence staged in shared memory (`offset` = its first element's global index).
struct Shared {
    const u64* values;
    __device__ __forceinline__ u64 operator[](int i) const { return values[i]; }
};

// Merges one tile of a and b: for each element of a it meets, calls found(a index, b index) with
// the global index of the first element of b that comes after it in the merge; that is the
// lower bound of the a element in b (lowerBound) or its upper bound.
template <typename Found>
__device__ __forceinline__ void mergeTile(Keys a, int aCount, Keys b, int bCount, const int* partitions, bool lowerBound,
                                          Found found) {
    __shared__ u64 keys[NV];
    const long long total = (long long)aCount + bCount;
    const long long diag0 = min((long long)blockIdx.x * NV, total);
    const long long diag1 = min(diag0 + NV, total);
    const int a0 = partitions[blockIdx.x];
    const int a1 = partitions[blockIdx.x + 1];
    const int b0 = (int)(diag0 - a0);
    const int b1 = (int)(diag1 - a1);
    const int na = a1 - a0;
    const int nb = b1 - b0;
    for (int i = threadIdx.x; i < na + nb; i += NT) {
        keys[i] = i < na ? a[a0 + i] : b[b0 + i - na];
    }
    __syncthreads();
    const Shared sa{keys};
    const Shared sb{keys + na};
    const int diag = min((int)threadIdx.x * VT, na + nb);
    int ai = mergePath(sa, na, sb, nb, diag, lowerBound);
    int bi = diag - ai;
    for (int k = 0; k < VT && ai + bi < na + nb; k++) {
        if (bi >= nb || (ai < na && aFirst(sa[ai], sb[bi], lowerBound))) {
            found(a0 + ai, b0 + bi);
            ai++;
        } else {
            bi++;
        }
    }
}

// Vectorized sorted search: bound[i] = lower (or upper) bound of a[i] in b.
extern "C" __global__ void __launch_bounds__(NT)
sorted_search(Keys a, int aCount, Keys b, int bCount, const int* partitions, int lowerBound, int* bound) {
    mergeTile(a, aCount, b, bCount, partitions, lowerBound != 0, [&](int ai, int bi) { bound[ai] = bi; });
}

// Load-balancing search: for output rows 0 .. outputs-1 (the counting sequence) merged with the
// segment starts `offsets` (an exclusive scan of the per-key output counts), segment[o] is the
// key whose outputs contain o: the last segment starting at or before o, so empty ones are skipped.
extern "C" __global__ void __launch_bounds__(NT)
load_balance(int outputs, const u64* offsets, int segments, const int* partitions, int* segment) {
    mergeTile(Keys{nullptr}, outputs, Keys{offsets}, segments, partitions, false,
              [&](int o, int bi) { segment[o] = bi - 1; });
}

// keys[i] = the ordered key of row ids[i] (the sorted, non-NULL rows of one side).
extern "C" __global__ void __launch_bounds__(BLOCK)
sorted_keys(const void* values, const unsigned char* valid, const unsigned* ranks, int kind, const int* ids, int count,
            u64* keys) {
    const KeySource source{values, valid, ranks, kind};
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        keys[i] = orderedKey(source, ids[i]);
    }
}

