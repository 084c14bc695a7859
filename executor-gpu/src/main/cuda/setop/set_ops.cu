// The set logic of UNION, INTERSECT and EXCEPT over the rows of one input, sorted by their
// distinct-row numbers (host side: GpuSetOperation). For its i-th row the merge gave
// first[i] (the lower bound of its number in its own input: rank = i - first[i] is the copy
// this row is among equal rows) and [lower[i], upper[i]) (where the number sits in the other
// input: count = upper - lower copies there).
#include "block.cuh"

using namespace warp;

// Which rows are kept; must match GpuSetOperation.
constexpr int KEEP_FIRST = 0;            // the first copy (UNION's left input)
constexpr int KEEP_FIRST_UNMATCHED = 1;  // the first copy of a row the other input lacks (EXCEPT, UNION's right input)
constexpr int KEEP_FIRST_MATCHED = 2;    // the first copy of a row the other input has (INTERSECT)
constexpr int KEEP_BELOW_COUNT = 3;      // copies below the other input's count (INTERSECT ALL)
constexpr int KEEP_FROM_COUNT = 4;       // copies beyond the other input's count (EXCEPT ALL)

extern "C" __global__ void __launch_bounds__(BLOCK)
set_flags(int mode, const int* first, const int* lower, const int* upper, int count, unsigned* flags) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        const long long rank = i - first[i];
        const int copies = upper[i] - lower[i];
        bool keep;
        switch (mode) {
            case KEEP_FIRST: keep = rank == 0; break;
            case KEEP_FIRST_UNMATCHED: keep = rank == 0 && copies == 0; break;
            case KEEP_FIRST_MATCHED: keep = rank == 0 && copies > 0; break;
            case KEEP_BELOW_COUNT: keep = rank < copies; break;
            default: keep = rank >= copies; break;
        }
        flags[i] = keep ? 1u : 0u;
    }
}

// out[at + offsets[i]] = base + rows[i] for every flagged i (offsets: exclusive scan of flags).
extern "C" __global__ void __launch_bounds__(BLOCK)
scatter_kept(const unsigned* flags, const unsigned* offsets, const int* rows, int base, int count, long long at, int* out) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        if (flags[i]) out[at + offsets[i]] = base + rows[i];
    }
}
