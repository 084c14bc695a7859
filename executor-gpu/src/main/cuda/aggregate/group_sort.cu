// Sort-based group-by: after the rows are sorted by their keys (sort/radix.cu), a group starts
// wherever the keys differ from the previous row's; a scan of these heads numbers the groups.
#include "block.cuh"
#include "../sort/ordered_key.cuh"

using namespace warp;

__device__ __forceinline__ bool sameKeys(const KeySource* keys, int numKeys, long long a, long long b) {
    for (int k = 0; k < numKeys; k++) {
        KeySource s = keys[k];
        bool va = keyValid(s, a), vb = keyValid(s, b);
        if (va != vb || (va && orderedKey(s, a) != orderedKey(s, b))) return false;
    }
    return true;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
segment_heads(const KeySource* keys, int numKeys, const int* sortedRows, int n, unsigned* heads) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        heads[i] = i == 0 || !sameKeys(keys, numKeys, sortedRows[i], sortedRows[i - 1]) ? 1u : 0u;
    }
}

// headsBefore: exclusive scan of heads. Group of sorted position i = headsBefore[i] + heads[i] - 1.
extern "C" __global__ void __launch_bounds__(BLOCK)
segment_groups(const int* sortedRows, const unsigned* heads, const unsigned* headsBefore, int n,
               int* groupOfRow, int* representative) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        int group = (int)(headsBefore[i] + heads[i]) - 1;
        groupOfRow[sortedRows[i]] = group;
        if (heads[i]) representative[group] = sortedRows[i];
    }
}
