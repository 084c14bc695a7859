// Sort-merge join after moderngpu's "Relational Joins" (host side: GpuMergeJoin): both sides
// sorted by key, then
//   1. vectorized sorted search (sort/merge_path.cu): for every left key its lower and upper bound
//      among the right keys (and, for RIGHT/FULL, every right key searched among the left ones);
//   2. the counts upper - lower (at least 1 for LEFT/FULL) are scanned into output offsets;
//   3. load-balancing search (sort/merge_path.cu): every output row finds the left key it belongs
//      to, however unevenly duplicates spread the output over the keys, and its rank in it;
//   4. (left row, right row) pairs are written; the caller gathers the columns.
// Several key columns are first packed into one 64-bit key per row (pack_keys), so that the
// sort and the searches compare one word.
#include "block.cuh"
#include "../sort/ordered_key.cuh"

using namespace warp;

// packed[row] = the row's keys packed into one word whose ordered key (as a BIGINT:
// value ^ SIGN_BIT) is the sum of (ordered key k - mins[k]) << shifts[k], valid[row] = 0 when a
// key is NULL. The host (PackedKeys) gives every key its own bit field, wide enough for the
// values of both sides (a key of span 0 gets shift 0: it adds 0), so equal packed words mean
// equal keys.
extern "C" __global__ void __launch_bounds__(BLOCK)
pack_keys(const KeySource* keys, int numKeys, const u64* mins, const u64* shifts, int rows, u64* packed,
          unsigned char* valid) {
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < rows; row += (long long)gridDim.x * BLOCK) {
        u64 word = 0;
        bool allValid = true;
        for (int k = 0; k < numKeys && allValid; k++) {
            allValid = keyValid(keys[k], row);
            if (allValid) word |= (orderedKey(keys[k], row) - mins[k]) << shifts[k];
        }
        packed[row] = allValid ? word ^ SIGN_BIT : 0;
        valid[row] = allValid ? 1 : 0;
    }
}

// Output rows per left key: its matches, or one row with no right row when the left side is outer.
extern "C" __global__ void __launch_bounds__(BLOCK)
match_counts(const int* lower, const int* upper, int count, int outerLeft, unsigned* counts) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        const int matches = upper[i] - lower[i];
        counts[i] = (unsigned)(matches == 0 && outerLeft ? 1 : matches);
    }
}

// total += sum of counts (64 bits: the scan that places the outputs holds 32).
extern "C" __global__ void __launch_bounds__(BLOCK)
sum_counts(const unsigned* counts, int count, u64* total) {
    __shared__ u64 partial[BLOCK];
    u64 sum = 0;
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        sum += counts[i];
    }
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

// The 64-bit copy of an exclusive scan, as the load-balancing search reads segment starts.
extern "C" __global__ void __launch_bounds__(BLOCK)
widen(const unsigned* in, int count, u64* out) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        out[i] = in[i];
    }
}

// Output row o pairs left key segment[o]'s row with the rank-th right row of its matches
// (rank = o - offsets[segment]), or with none (-1) when it has no match.
extern "C" __global__ void __launch_bounds__(BLOCK)
expand_pairs(const int* segment, const unsigned* offsets, const int* lower, const int* upper, const int* leftIds,
             const int* rightIds, int outputs, int* outLeft, int* outRight) {
    for (long long o = (long long)blockIdx.x * BLOCK + threadIdx.x; o < outputs; o += (long long)gridDim.x * BLOCK) {
        const int s = segment[o];
        const int rank = (int)(o - offsets[s]);
        outLeft[o] = leftIds[s];
        if (outRight != nullptr) outRight[o] = lower[s] + rank < upper[s] ? rightIds[lower[s] + rank] : -1;
    }
}

// flags[i] = 1 where right key i matched no left key (its bounds in the left keys are equal).
extern "C" __global__ void __launch_bounds__(BLOCK)
unmatched_flags(const int* lower, const int* upper, int count, unsigned* flags) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        flags[i] = lower[i] == upper[i] ? 1u : 0u;
    }
}

// Appends (-1, ids[i]) at at + offsets[i] for every flagged i.
extern "C" __global__ void __launch_bounds__(BLOCK)
append_unmatched(const unsigned* flags, const unsigned* offsets, const int* ids, int count, long long at, int* outLeft,
                 int* outRight) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        if (flags[i]) {
            outLeft[at + offsets[i]] = -1;
            outRight[at + offsets[i]] = ids[i];
        }
    }
}
