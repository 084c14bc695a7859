// COUNT(*), COUNT, SUM, SUM0 and AVG over each sorted position's frame (the CPU's
// FrameSumEvaluator). Counts and exact sums (INTEGER, BIGINT, DECIMAL) come from prefix sums
// over the sorted positions, so a frame's value is one subtraction: non-NULL counts by
// sort/scan.cu, 128-bit sums by the three-phase scan here (tile totals, their scan in one
// block, each tile's scan from its offset). DOUBLE sums are not subtracted (a large value
// leaving the frame would wipe out the small ones' digits): a table of power-of-two block sums
// (level j: the sum of [p, p + 2^j)) adds a frame from at most log2(length) + 1 disjoint blocks.
#include "block.cuh"
#include "exact_sum.cuh"

using namespace warp;

// Functions: the ordinals of io.warpdb.core.plan.WindowFunction.
constexpr int COUNT_STAR = 11;
constexpr int COUNT = 12;
constexpr int SUM0 = 14;
constexpr int AVG = 15;

__device__ __forceinline__ long long valueAt(const void* values, const unsigned char* valid, int width, long long row) {
    if (valid != nullptr && !valid[row]) return 0;
    return width == 4 ? (long long)((const int*)values)[row] : ((const long long*)values)[row];
}

// Non-NULL flags by sorted position (the counts' scan input).
extern "C" __global__ void __launch_bounds__(BLOCK)
valid_flags(const unsigned char* valid, const int* sorted, int n, unsigned* flags) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        flags[i] = valid == nullptr || valid[sorted[i]] ? 1u : 0u;
    }
}

// Exclusive scan of one value per thread across the block (Hillis-Steele in shared memory);
// returns the block's total to every thread.
__device__ __forceinline__ __int128 blockExclusive(__int128 mine, __int128& exclusive) {
    __shared__ __int128 scratch[BLOCK];
    scratch[threadIdx.x] = mine;
    __syncthreads();
    for (int o = 1; o < BLOCK; o <<= 1) {
        const __int128 add = threadIdx.x >= o ? scratch[threadIdx.x - o] : 0;
        __syncthreads();
        scratch[threadIdx.x] += add;
        __syncthreads();
    }
    exclusive = scratch[threadIdx.x] - mine;
    const __int128 total = scratch[BLOCK - 1];
    __syncthreads();
    return total;
}

// Phase 1: the sum of each tile of TILE sorted positions (thread t: the ITEMS consecutive ones from t * ITEMS).
extern "C" __global__ void __launch_bounds__(BLOCK)
sum_tiles(const void* values, const unsigned char* valid, int width, const int* sorted, int n, __int128* tileSums) {
    const long long first = (long long)blockIdx.x * TILE + (long long)threadIdx.x * ITEMS;
    __int128 sum = 0;
    for (int k = 0; k < ITEMS; k++) {
        if (first + k < n) sum += valueAt(values, valid, width, sorted[first + k]);
    }
    __int128 ignored;
    const __int128 total = blockExclusive(sum, ignored);
    if (threadIdx.x == 0) tileSums[blockIdx.x] = total;
}

// Phase 2, one block: the tile sums become exclusive offsets, in place.
extern "C" __global__ void __launch_bounds__(BLOCK)
scan_tile_sums(__int128* tileSums, int tiles) {
    __int128 carried = 0;
    for (int base = 0; base < tiles; base += BLOCK) {
        const int t = base + threadIdx.x;
        const __int128 mine = t < tiles ? tileSums[t] : 0;
        __int128 exclusive;
        const __int128 total = blockExclusive(mine, exclusive);
        if (t < tiles) tileSums[t] = carried + exclusive;
        carried += total;
    }
}

// Phase 3: prefix[p + 1] = the sum of sorted positions [0, p], prefix[0] = 0 (n + 1 entries).
extern "C" __global__ void __launch_bounds__(BLOCK)
sum_prefix(const void* values, const unsigned char* valid, int width, const int* sorted, int n,
           const __int128* tileOffsets, __int128* prefix) {
    const long long first = (long long)blockIdx.x * TILE + (long long)threadIdx.x * ITEMS;
    long long v[ITEMS];
    __int128 sum = 0;
    for (int k = 0; k < ITEMS; k++) {
        v[k] = first + k < n ? valueAt(values, valid, width, sorted[first + k]) : 0;
        sum += v[k];
    }
    __int128 exclusive;
    blockExclusive(sum, exclusive);
    __int128 running = tileOffsets[blockIdx.x] + exclusive;
    for (int k = 0; k < ITEMS; k++) {
        running += v[k];
        if (first + k < n) prefix[first + k + 1] = running;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) prefix[0] = 0;
}

// Flags of the finishing kernels.
constexpr int FIT_INT32 = 1;      // an INTEGER result: beyond int32 the host finishes (and fails as the CPU does)
constexpr int ROUND_HALF_UP = 2;  // a DECIMAL average rounds HALF_UP, an integer one truncates
constexpr int DOUBLE_RESULT = 4;  // an exact average as DOUBLE (the planner's AVG type)

constexpr long long EXACT_DOUBLE_LIMIT = 1ll << 53;

// An exact average as DOUBLE when both operands are exact doubles (core's ExactQuotients.toDouble);
// false when the host must divide in decimal.
__device__ __forceinline__ bool exactQuotient(long long sum, long long n, int scale, double& value) {
    if (scale > 15 || sum > EXACT_DOUBLE_LIMIT || sum < -EXACT_DOUBLE_LIMIT) return false;
    const long long scaleFactor = POW10[scale];
    if (n > EXACT_DOUBLE_LIMIT / scaleFactor) return false;
    value = (double)sum / (double)(n * scaleFactor);
    return true;
}

// Counts, exact sums and averages (as the result type, or as DOUBLE) of each frame. counts: the exclusive scan of valid_flags (n + 1
// words; null for COUNT(*)), prefix: the 128-bit prefix sums (null for counts). A value the
// kernel cannot give (beyond 64 bits, out of the result's range) sets *needsHost.
extern "C" __global__ void __launch_bounds__(BLOCK)
exact_frames(int function, const unsigned* counts, const __int128* prefix, const int* start, const int* end, int n,
             int inputScale, int resultScale, int flags, int width, void* out, unsigned char* outValid, int* needsHost) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int s = start[i], e = end[i];
        const long long count = counts == nullptr ? (long long)(e - s) : (long long)(counts[e] - counts[s]);
        long long value = 0;
        bool isValid = true;
        bool ok = true;
        if (function == COUNT_STAR || function == COUNT) {
            value = count;
            ok = !(flags & FIT_INT32) || count <= 2147483647ll;
        } else if (count == 0) {
            isValid = function == SUM0;
        } else {
            const __int128 sum = prefix[e] - prefix[s];
            const long long low = (long long)sum;
            if ((__int128)low != sum) {
                ok = false;
            } else if (flags & DOUBLE_RESULT) {
                double quotient = 0;
                ok = exactQuotient(low, count, inputScale, quotient);
                value = __double_as_longlong(quotient);
            } else {
                ok = exactSumValue(low, count, inputScale, resultScale, function == AVG, (flags & ROUND_HALF_UP) != 0,
                                   (flags & FIT_INT32) != 0, value);
            }
        }
        if (!ok) {
            *needsHost = 1;
            continue;
        }
        if (width == 8) ((long long*)out)[i] = value;
        else ((int*)out)[i] = (int)value;
        outValid[i] = isValid ? 1 : 0;
    }
}

// Level 0 of the DOUBLE block sums: the values by sorted position, NULL as 0.
extern "C" __global__ void __launch_bounds__(BLOCK)
double_leaves(const double* values, const unsigned char* valid, const int* sorted, int n, double* level0) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int row = sorted[i];
        level0[i] = valid == nullptr || valid[row] ? values[row] : 0.0;
    }
}

// Level j from level j - 1 (half = 2^(j-1)): blocks past the end keep their shorter extent.
extern "C" __global__ void __launch_bounds__(BLOCK)
double_level(const double* previous, int n, int half, double* level) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        level[i] = i + half < n ? previous[i] + previous[i + half] : previous[i];
    }
}

// SUM, SUM0 and AVG of DOUBLE frames: the frame's disjoint blocks added from its start.
extern "C" __global__ void __launch_bounds__(BLOCK)
double_frames(int function, const double* table, const unsigned* counts, const int* start, const int* end, int n,
              double* out, unsigned char* outValid) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        int s = start[i];
        const int e = end[i];
        const long long count = (long long)(counts[e] - counts[s]);
        double sum = 0;
        while (s < e) {
            const int j = 31 - __clz(e - s);
            sum += table[(long long)j * n + s];
            s += 1 << j;
        }
        outValid[i] = count > 0 || function == SUM0 ? 1 : 0;
        out[i] = count == 0 ? 0.0 : function == AVG ? sum / (double)count : sum;
    }
}
