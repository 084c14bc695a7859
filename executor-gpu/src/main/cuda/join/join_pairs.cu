// What every GPU join does with the (left row, right row) pairs its algorithm found: the
// Cartesian product of a nested-loop join (M-BSP PRODUCT), marking the rows a pair uses,
// selecting the rows marked (or not), and appending pairs to an output where a missing side is
// -1 (the NULL side of an outer join).
#include "block.cuh"

using namespace warp;

// Pair i of the product of leftRows x rightRows: (i / rightRows, i % rightRows).
extern "C" __global__ void __launch_bounds__(BLOCK)
cross_pairs(int* leftIds, int* rightIds, int rightRows, long long count) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        leftIds[i] = (int)(i / rightRows);
        rightIds[i] = (int)(i % rightRows);
    }
}

// matched[ids[i]] = 1 for every id that is not negative; matched starts zeroed.
extern "C" __global__ void __launch_bounds__(BLOCK)
mark_rows(const int* ids, int count, int* matched) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        const int row = ids[i];
        if (row >= 0) matched[row] = 1;
    }
}

// flags[row] = 1 where matched[row] equals want, else 0 (the input of the scan that places them).
extern "C" __global__ void __launch_bounds__(BLOCK)
select_flags(const int* matched, int want, int rows, int* flags) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < rows; i += (long long)gridDim.x * BLOCK) {
        flags[i] = matched[i] == want ? 1 : 0;
    }
}

// out[offsets[row]] = row for the flagged rows, in row order (offsets: exclusive scan of flags).
extern "C" __global__ void __launch_bounds__(BLOCK)
scatter_flagged(const int* flags, const int* offsets, int rows, int* out) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < rows; i += (long long)gridDim.x * BLOCK) {
        if (flags[i]) out[offsets[i]] = (int)i;
    }
}

// Appends count pairs at position at of outLeft/outRight; a null input side appends -1s there.
extern "C" __global__ void __launch_bounds__(BLOCK)
append_pairs(int* outLeft, int* outRight, long long at, const int* left, const int* right, int count) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        if (outLeft != nullptr) outLeft[at + i] = left == nullptr ? -1 : left[i];
        if (outRight != nullptr) outRight[at + i] = right == nullptr ? -1 : right[i];
    }
}
