// COUNT(*), COUNT, SUM, SUM0 and AVG over each sorted position's frame (the CPU's
// FrameSumEvaluator). Counts and exact sums (INTEGER, BIGINT, DECIMAL) come from prefix sums
// over the sorted positions, so a frame's value is one subtraction: non-NULL counts by
// sort/scan.cu, 128-bit sums by the three-phase scan here (tile totals, their scan in one
// block, each tile's scan from its offset). A wide DECIMAL argument (16 bytes: lower word, then
// upper) gets two such sums, of its lower words (unsigned) and of its upper words (signed), which
// no row count overflows; a frame's sum is upper * 2^64 + lower. DOUBLE sums are not subtracted
// (a large value leaving the frame would wipe out the small ones' digits): a table of
// power-of-two block sums (level j: the sum of [p, p + 2^j)) adds a frame from at most
// log2(length) + 1 disjoint blocks.
#include "block.cuh"
#include "exact_sum.cuh"

using namespace warp;

// Functions: the ordinals of io.warpdb.core.plan.WindowFunction.
constexpr int COUNT_STAR = 11;
constexpr int COUNT = 12;
constexpr int SUM0 = 14;
constexpr int AVG = 15;

// The word of a wide DECIMAL a prefix sum adds: 0 its lower word (unsigned), 1 its upper word
// (signed), as FrameSumColumn's LOWER_WORD and UPPER_WORD; narrow values add themselves.
constexpr int UPPER_WORD = 1;

// The addend of input row `row` to a prefix sum, NULL as 0: the value (width 4 or 8), or a wide value's word.
__device__ __forceinline__ __int128 addendAt(const void* values, const unsigned char* valid, int width, int word, long long row) {
    if (valid != nullptr && !valid[row]) return 0;
    if (width == 16) {
        const long long w = ((const long long*)values)[2 * row + word];  // the lower word first
        return word == UPPER_WORD ? (__int128)w : (__int128)(unsigned long long)w;
    }
    return width == 4 ? (__int128)((const int*)values)[row] : (__int128)((const long long*)values)[row];
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
sum_tiles(const void* values, const unsigned char* valid, int width, int word, const int* sorted, int n, __int128* tileSums) {
    const long long first = (long long)blockIdx.x * TILE + (long long)threadIdx.x * ITEMS;
    __int128 sum = 0;
    for (int k = 0; k < ITEMS; k++) {
        if (first + k < n) sum += addendAt(values, valid, width, word, sorted[first + k]);
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
sum_prefix(const void* values, const unsigned char* valid, int width, int word, const int* sorted, int n,
           const __int128* tileOffsets, __int128* prefix) {
    const long long first = (long long)blockIdx.x * TILE + (long long)threadIdx.x * ITEMS;
    __int128 v[ITEMS];
    __int128 sum = 0;
    for (int k = 0; k < ITEMS; k++) {
        v[k] = first + k < n ? addendAt(values, valid, width, word, sorted[first + k]) : 0;
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

// The sum of sorted positions [s, e): a difference of prefix sums, or for a wide argument (upper
// not null) upper * 2^64 + lower from its words' sums; false beyond 128 bits.
__device__ __forceinline__ bool frameSum(const __int128* prefix, const __int128* upper, int s, int e, __int128& sum) {
    const __int128 lower = prefix[e] - prefix[s];
    if (upper == nullptr) {
        sum = lower;
        return true;
    }
    // = (upper + lower's upper word) * 2^64 + lower's lower word (lower >= 0): 128 bits when the first factor fits 64.
    const __int128 high = upper[e] - upper[s] + (lower >> 64);
    if ((__int128)(long long)high != high) return false;
    sum = (__int128)(((unsigned __int128)(unsigned long long)(long long)high << 64) | (unsigned long long)lower);
    return true;
}

// A SUM as a wide DECIMAL: the 128-bit sum shifted to the result's scale (dropped digits round
// HALF_UP, as Int128.rescale), |value| < limit = 10^precision; false for the host (a shift beyond
// 18 digits, a value beyond the precision, whose 22003 the host raises).
__device__ __forceinline__ bool wideSumValue(__int128 sum, int shift, __int128 limit, __int128& value) {
    if (shift > 18 || shift < -18) return false;
    if (shift > 0) {
        // |sum| * 10^shift < limit without overflowing on the way.
        const __int128 bound = (limit - 1) / POW10[shift];
        if (sum > bound || sum < -bound) return false;
        value = sum * POW10[shift];
        return true;
    }
    value = shift == 0 ? sum : divideRounded(sum, POW10[-shift], true);
    return value < limit && value > -limit;
}

// Counts, exact sums and averages (as the result type, or as DOUBLE) of each frame. counts: the
// exclusive scan of valid_flags (n + 1 words; null for COUNT(*)), prefix: the 128-bit prefix sums
// (null for counts; a wide argument's lower words', upperPrefix its upper words', else null).
// width 16: a wide DECIMAL SUM, below limitHigh * 2^64 + limitLow in magnitude. A value the kernel
// cannot give (beyond 64 bits but for a wide result, out of the result's range) sets *needsHost.
extern "C" __global__ void __launch_bounds__(BLOCK)
exact_frames(int function, const unsigned* counts, const __int128* prefix, const __int128* upperPrefix, const int* start,
             const int* end, int n, int inputScale, int resultScale, int flags, long long limitLow, long long limitHigh, int width,
             void* out, unsigned char* outValid, int* needsHost) {
    const __int128 limit = (__int128)(((unsigned __int128)(unsigned long long)limitHigh << 64) | (unsigned long long)limitLow);
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int s = start[i], e = end[i];
        const long long count = counts == nullptr ? (long long)(e - s) : (long long)(counts[e] - counts[s]);
        long long value = 0;
        long long valueHigh = 0;  // a wide result's upper word
        bool isValid = true;
        bool ok = true;
        __int128 sum = 0;
        if (function == COUNT_STAR || function == COUNT) {
            value = count;
            ok = !(flags & FIT_INT32) || count <= 2147483647ll;
        } else if (count == 0) {
            isValid = function == SUM0;
        } else if (!frameSum(prefix, upperPrefix, s, e, sum)) {
            ok = false;
        } else if (width == 16) {
            __int128 wide = 0;
            ok = wideSumValue(sum, resultScale - inputScale, limit, wide);
            value = (long long)wide;
            valueHigh = (long long)(wide >> 64);
        } else {
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
        if (width == 16) ((longlong2*)out)[i] = make_longlong2(value, valueHigh);
        else if (width == 8) ((long long*)out)[i] = value;
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
