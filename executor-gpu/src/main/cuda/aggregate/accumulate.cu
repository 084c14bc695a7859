// Aggregate state per group: counts, exact sums (and the parts of sums of squares) in 128 bits (low
// word + high word with carry), double sums (and sums of deviations), MIN/MAX as ordered keys (sort/ordered_key.cuh). accumulate_groups adds each row
// to its group with atomics; accumulate_all (no GROUP BY) reduces in registers and per block
// and merges one partial per block. finish.cu (or the host) turns the state into result values.
#include "block.cuh"
#include "../sort/ordered_key.cuh"
#include "state.cuh"

using namespace warp;

struct AggSpec {
    long long op;
    KeySource arg;  // values, validity, ranks, kind
    u64* count;
    u64* a;
    u64* b;
    const u64* centerCount;  // OP_DEVIATIONS: the first pass's OP_SUM_DOUBLE state (count, double sum); else null
    const u64* centerSum;
};
static_assert(sizeof(AggSpec) == 10 * 8, "ten words per aggregate, as the host writes them");

__device__ __forceinline__ long long exactValue(const KeySource& s, long long row) {
    return s.kind == KEY_INT32 ? (long long)((const int*)s.values)[row] : ((const long long*)s.values)[row];
}

// Whether the operation adds a 128-bit exact addend per row (a = low word, b = high word).
__device__ __forceinline__ bool sums128(int op) {
    return op == OP_SUM_EXACT || op == OP_SQUARES_HIGH || op == OP_SQUARES_CROSS || op == OP_SQUARES_LOW || op == OP_WIDE_LOW
           || op == OP_WIDE_HIGH;
}

// Whether the state words a and b are double sums (b unused by OP_SUM_DOUBLE, where it stays 0).
__device__ __forceinline__ bool sumsDoubles(int op) { return op == OP_SUM_DOUBLE || op == OP_DEVIATIONS; }

// Operations that keep the least key in a (MIN, SINGLE_VALUE's MIN, a wide MIN's lower word), the greatest.
__device__ __forceinline__ bool keepsLeast(int op) { return op == OP_MIN || op == OP_SINGLE_VALUE || op == OP_WIDE_MIN_LOW; }
__device__ __forceinline__ bool keepsGreatest(int op) { return op == OP_MAX || op == OP_WIDE_MAX_LOW; }

// The state a partial starts from: nothing counted, the least-keeping operations at the largest key.
__device__ __forceinline__ u64 emptyA(int op) { return keepsLeast(op) ? ~0ull : 0ull; }

// The row's 128-bit addend of an exact sum: the value, a part of its square, or a word of a wide
// DECIMAL (state.cuh).
__device__ __forceinline__ void exactAddend(const KeySource& s, int op, long long row, u64& lo, u64& hi) {
    if (op == OP_WIDE_LOW || op == OP_WIDE_HIGH) {
        const bool upper = op == OP_WIDE_HIGH;
        lo = ((const u64*)s.values)[2 * row + (upper ? 1 : 0)];
        hi = upper && (long long)lo < 0 ? ~0ull : 0ull;  // the upper word signed, the lower unsigned
        return;
    }
    const long long v = exactValue(s, row);
    const long long h = v >> 32;                         // arithmetic: -2^31 <= h < 2^31
    const unsigned long long l = (u64)v & 0xffffffffull;  // 0 <= l < 2^32
    switch (op) {
        case OP_SQUARES_HIGH:
            lo = (u64)(h * h);  // at most 2^62
            hi = 0;
            break;
        case OP_SQUARES_CROSS: {
            const long long cross = h * (long long)l;  // |h * l| < 2^63
            lo = (u64)cross;
            hi = cross < 0 ? ~0ull : 0ull;
            break;
        }
        case OP_SQUARES_LOW:
            lo = l * l;  // below 2^64, unsigned
            hi = 0;
            break;
        default:  // OP_SUM_EXACT
            lo = (u64)v;
            hi = v < 0 ? ~0ull : 0ull;
    }
}

// The key a least- or greatest-keeping operation takes from the row of group g; false when the row
// takes no part: a wide DECIMAL whose upper word is not the one the group's first pass picked.
__device__ __forceinline__ bool pickedKey(const AggSpec& s, int op, int g, long long row, u64& key) {
    if (op == OP_WIDE_MIN_LOW || op == OP_WIDE_MAX_LOW) {
        const u64* words = (const u64*)s.arg.values;
        if ((words[2 * row + 1] ^ SIGN_BIT) != s.centerSum[g]) return false;  // the upper word as an ordered key
        key = words[2 * row];
        return true;
    }
    key = orderedKey(s.arg, row);
    return true;
}

// A DOUBLE row's deviation from its group's mean, the mean from the first pass's sum and count.
__device__ __forceinline__ double deviation(const AggSpec& s, int g, long long row) {
    const u64 n = s.centerCount[g];
    const double mean = n == 0 ? 0.0 : __longlong_as_double((long long)s.centerSum[g]) / (double)n;
    return ((const double*)s.arg.values)[row] - mean;
}

// (a, b) += (x, y) as doubles, atomically (each word on its own).
__device__ __forceinline__ void atomicAddDoubles(u64* a, u64* b, double x, double y) {
    atomicAdd((double*)a, x);
    atomicAdd((double*)b, y);
}

// (hi, lo) += (xhi, xlo) in registers.
__device__ __forceinline__ void add128(u64& lo, u64& hi, u64 xlo, u64 xhi) {
    u64 sum = lo + xlo;
    hi += xhi + (sum < lo ? 1ull : 0ull);
    lo = sum;
}

// (b[g], a[g]) += (xhi, xlo) atomically: each carry comes from its own addition's old value,
// so concurrent additions still sum to the exact 128-bit total.
__device__ __forceinline__ void atomicAdd128(u64* lo, u64* hi, u64 xlo, u64 xhi) {
    u64 old = atomicAdd(lo, xlo);
    u64 carry = old + xlo < old ? 1ull : 0ull;
    if (xhi + carry != 0) atomicAdd(hi, xhi + carry);
}

// Adds one row to group slot `g` of the state arrays (global or shared: atomics take both); the
// slot is the group's number in every kernel, which OP_DEVIATIONS reads its mean by.
__device__ __forceinline__ void accumulateRow(const AggSpec& s, int op, u64* count, u64* a, u64* b, int g, long long row) {
    if (op == OP_COUNT_ROWS || op == OP_SINGLE_VALUE) {
        atomicAdd(&count[g], 1ull);
    }
    if (op == OP_COUNT_ROWS || !keyValid(s.arg, row)) return;
    switch (op) {
        case OP_COUNT:
            atomicAdd(&count[g], 1ull);
            break;
        case OP_SUM_EXACT:
        case OP_SQUARES_HIGH:
        case OP_SQUARES_CROSS:
        case OP_SQUARES_LOW:
        case OP_WIDE_LOW:
        case OP_WIDE_HIGH: {
            u64 lo, hi;
            exactAddend(s.arg, op, row, lo, hi);
            atomicAdd(&count[g], 1ull);
            atomicAdd128(&a[g], &b[g], lo, hi);
            break;
        }
        case OP_SUM_DOUBLE:
            atomicAdd(&count[g], 1ull);
            atomicAdd((double*)&a[g], ((const double*)s.arg.values)[row]);
            break;
        case OP_DEVIATIONS: {
            const double d = deviation(s, g, row);
            atomicAdd(&count[g], 1ull);
            atomicAddDoubles(&a[g], &b[g], d * d, d);
            break;
        }
        case OP_MIN:
        case OP_MAX:
        case OP_WIDE_MIN_LOW:
        case OP_WIDE_MAX_LOW: {
            u64 key;
            if (!pickedKey(s, op, g, row, key)) break;
            atomicAdd(&count[g], 1ull);
            if (keepsGreatest(op)) atomicMax(&a[g], key);
            else atomicMin(&a[g], key);
            break;
        }
        default:  // OP_SINGLE_VALUE
            atomicMin(&a[g], orderedKey(s.arg, row));
            atomicOr(&b[g], 1ull);
            break;
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
accumulate_groups(const AggSpec* aggs, int numAggs, const int* groupOfRow, int n) {
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
        const int g = groupOfRow[row];
        for (int a = 0; a < numAggs; a++) {
            const AggSpec s = aggs[a];
            accumulateRow(s, (int)s.op, s.count, s.a, s.b, g, row);
        }
    }
}

// Adds a partial state (count, a, b) to group slot `g` of state arrays, global or shared.
__device__ __forceinline__ void mergeState(int op, u64* count, u64* a, u64* b, int g, u64 partialCount, u64 pa, u64 pb) {
    if (partialCount == 0) return;  // nothing of this group
    atomicAdd(&count[g], partialCount);
    if (sums128(op)) atomicAdd128(&a[g], &b[g], pa, pb);
    else if (sumsDoubles(op)) atomicAddDoubles(&a[g], &b[g], __longlong_as_double((long long)pa), __longlong_as_double((long long)pb));
    else if (op == OP_MIN || op == OP_WIDE_MIN_LOW) atomicMin(&a[g], pa);
    else if (keepsGreatest(op)) atomicMax(&a[g], pa);
    else if (op == OP_SINGLE_VALUE) {
        atomicMin(&a[g], pa);
        if (pb) atomicOr(&b[g], 1ull);
    }
}

// Per-block copies of the state in shared memory: numAggs x 3 arrays of `groups` words.
__device__ __forceinline__ void initSharedState(u64* state, const AggSpec* aggs, int numAggs, int groups) {
    for (int i = threadIdx.x; i < numAggs * groups; i += blockDim.x) {
        const int op = (int)aggs[i / groups].op;
        u64* base = state + (size_t)(i / groups) * 3 * groups;
        const int g = i % groups;
        base[g] = 0;
        base[groups + g] = emptyA(op);
        base[2 * groups + g] = 0;
    }
    __syncthreads();
}

__device__ __forceinline__ void flushSharedState(const u64* state, const AggSpec* aggs, int numAggs, int groups) {
    __syncthreads();
    for (int i = threadIdx.x; i < numAggs * groups; i += blockDim.x) {
        const AggSpec s = aggs[i / groups];
        const int g = i % groups;
        const u64* base = state + (size_t)(i / groups) * 3 * groups;
        mergeState((int)s.op, s.count, s.a, s.b, g, base[g], base[groups + g], base[2 * groups + g]);
    }
}

// Few groups (region I of Karnagel et al.: every row's atomic hits the same few words in L2):
// each block first accumulates into its own copy of the state in shared memory (dynamic shared
// memory), then merges it into the global state.
extern "C" __global__ void __launch_bounds__(BLOCK)
accumulate_groups_shared(const AggSpec* aggs, int numAggs, const int* groupOfRow, int n, int groups) {
    extern __shared__ u64 state[];  // [aggregate][count | a | b][group]
    initSharedState(state, aggs, numAggs, groups);
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
        const int g = groupOfRow[row];
        for (int a = 0; a < numAggs; a++) {
            u64* base = state + (size_t)a * 3 * groups;
            accumulateRow(aggs[a], (int)aggs[a].op, base, base + groups, base + 2 * groups, g, row);
        }
    }
    flushSharedState(state, aggs, numAggs, groups);
}

// One row's contribution to its group g, as a partial state (count, a, b); zero count: none.
__device__ __forceinline__ void rowPartial(const AggSpec& s, int op, int g, long long row, u64& count, u64& a, u64& b) {
    count = 0;
    a = emptyA(op);
    b = 0;
    if (op == OP_COUNT_ROWS || op == OP_SINGLE_VALUE) count = 1;
    if (op == OP_COUNT_ROWS || !keyValid(s.arg, row)) return;
    count = 1;
    if (sums128(op)) {
        exactAddend(s.arg, op, row, a, b);
    } else if (op == OP_SUM_DOUBLE) {
        a = (u64)__double_as_longlong(((const double*)s.arg.values)[row]);
    } else if (op == OP_DEVIATIONS) {
        const double d = deviation(s, g, row);
        a = (u64)__double_as_longlong(d * d);
        b = (u64)__double_as_longlong(d);
    } else if (keepsLeast(op) || keepsGreatest(op)) {
        if (pickedKey(s, op, g, row, a)) {
            b = 1;
        } else {
            count = 0;
            a = emptyA(op);
        }
    }
}

// (count, a, b) += the partial state (oc, oa, ob), in registers.
__device__ __forceinline__ void combine(int op, u64& count, u64& a, u64& b, u64 oc, u64 oa, u64 ob) {
    count += oc;
    if (sums128(op)) add128(a, b, oa, ob);
    else if (sumsDoubles(op)) {
        a = (u64)__double_as_longlong(__longlong_as_double((long long)a) + __longlong_as_double((long long)oa));
        b = (u64)__double_as_longlong(__longlong_as_double((long long)b) + __longlong_as_double((long long)ob));
    }
    else if (keepsGreatest(op)) a = max(a, oa);
    else if (keepsLeast(op)) {
        a = min(a, oa);
        b |= ob;
    }
}

// The sum (min, max, or) of a partial state over the lanes of a warp; every lane gets it.
__device__ __forceinline__ void warpMerge(int op, u64& count, u64& a, u64& b) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        const u64 oc = __shfl_xor_sync(0xffffffffu, count, offset);
        const u64 oa = __shfl_xor_sync(0xffffffffu, a, offset);
        const u64 ob = __shfl_xor_sync(0xffffffffu, b, offset);
        combine(op, count, a, b, oc, oa, ob);
    }
}

// Very few groups (the low end of region I, see GroupByTuning): as accumulate_groups_shared,
// but a warp first merges the rows it holds of one group with shuffles, so one lane per group
// present in the warp touches shared memory instead of every lane queueing on the same words.
extern "C" __global__ void __launch_bounds__(BLOCK)
accumulate_groups_warp(const AggSpec* aggs, int numAggs, const int* groupOfRow, int n, int groups) {
    extern __shared__ u64 state[];  // [aggregate][count | a | b][group]
    initSharedState(state, aggs, numAggs, groups);
    const int lane = threadIdx.x & 31;
    // Whole warps step together (shuffles need every lane); lanes past the end hold no row.
    for (long long first = (long long)blockIdx.x * BLOCK; first < n; first += (long long)gridDim.x * BLOCK) {
        const long long row = first + threadIdx.x;
        const bool holds = row < n;
        const int g = holds ? groupOfRow[row] : -1;
        unsigned pending = __ballot_sync(0xffffffffu, holds);
        while (pending != 0) {
            const int leader = __ffs(pending) - 1;
            const int group = __shfl_sync(0xffffffffu, g, leader);
            const bool mine = holds && g == group;
            pending &= ~__ballot_sync(0xffffffffu, mine);
            for (int ai = 0; ai < numAggs; ai++) {
                const AggSpec s = aggs[ai];
                const int op = (int)s.op;
                u64 count = 0, a = emptyA(op), b = 0;
                if (mine) rowPartial(s, op, group, row, count, a, b);
                warpMerge(op, count, a, b);
                if (lane == leader) {
                    u64* base = state + (size_t)ai * 3 * groups;
                    mergeState(op, base, base + groups, base + 2 * groups, group, count, a, b);
                }
            }
        }
    }
    flushSharedState(state, aggs, numAggs, groups);
}

// The fewest groups (up to REGISTER_GROUPS, as TPC-H q01's four): where a warp holds rows of
// every group, accumulate_groups_warp merges once per group and aggregate for each 32 rows. Here a
// thread keeps a partial state per group in registers over all its rows, one aggregate at a time
// (a predicated add per group slot, the slot a compile-time index so it stays in registers), and
// merges per warp with shuffles only at the end; one lane then adds the warp's partials to the
// block's copy of the state in shared memory. GroupByTuning.REGISTER_GROUPS is this bound.
constexpr int REGISTER_GROUPS = 4;

extern "C" __global__ void __launch_bounds__(BLOCK)
accumulate_groups_registers(const AggSpec* aggs, int numAggs, const int* groupOfRow, int n, int groups) {
    extern __shared__ u64 state[];  // [aggregate][count | a | b][group]
    initSharedState(state, aggs, numAggs, groups);
    const int lane = threadIdx.x & 31;
    for (int ai = 0; ai < numAggs; ai++) {
        const AggSpec s = aggs[ai];
        const int op = (int)s.op;
        u64 count[REGISTER_GROUPS], a[REGISTER_GROUPS], b[REGISTER_GROUPS];
#pragma unroll
        for (int k = 0; k < REGISTER_GROUPS; k++) {
            count[k] = 0;
            a[k] = emptyA(op);
            b[k] = 0;
        }
        for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
            const int g = groupOfRow[row];
            u64 rc, ra, rb;
            rowPartial(s, op, g, row, rc, ra, rb);
#pragma unroll
            for (int k = 0; k < REGISTER_GROUPS; k++) {
                if (k == g) combine(op, count[k], a[k], b[k], rc, ra, rb);
            }
        }
        u64* base = state + (size_t)ai * 3 * groups;
#pragma unroll
        for (int k = 0; k < REGISTER_GROUPS; k++) {
            if (k < groups) {  // the same for every lane: the warp shuffles together
                warpMerge(op, count[k], a[k], b[k]);
                if (lane == 0) mergeState(op, base, base + groups, base + 2 * groups, k, count[k], a[k], b[k]);
            }
        }
    }
    flushSharedState(state, aggs, numAggs, groups);
}

// One block's partial of one aggregate: exact sums in (lo, hi), double sums in (sum, sum2).
struct Partial {
    u64 count, lo, hi, best, seen;
    double sum, sum2;
};

__device__ __forceinline__ void merge(Partial& p, const Partial& q, int op) {
    p.count += q.count;
    add128(p.lo, p.hi, q.lo, q.hi);
    p.sum += q.sum;
    p.sum2 += q.sum2;
    p.best = keepsGreatest(op) ? max(p.best, q.best) : min(p.best, q.best);
    p.seen |= q.seen;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
accumulate_all(const AggSpec* aggs, int numAggs, int n) {
    __shared__ Partial warpPartials[WARPS];
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
    for (int a = 0; a < numAggs; a++) {
        const AggSpec s = aggs[a];
        const int op = (int)s.op;
        Partial p{0, 0, 0, keepsGreatest(op) ? 0ull : ~0ull, 0, 0.0, 0.0};
        for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
            if (op == OP_COUNT_ROWS || op == OP_SINGLE_VALUE) p.count++;
            if (op == OP_COUNT_ROWS || !keyValid(s.arg, row)) continue;
            if (op != OP_SINGLE_VALUE) p.count++;
            if (sums128(op)) {
                u64 lo, hi;
                exactAddend(s.arg, op, row, lo, hi);
                add128(p.lo, p.hi, lo, hi);
            } else if (op == OP_SUM_DOUBLE) {
                p.sum += ((const double*)s.arg.values)[row];
            } else if (op == OP_DEVIATIONS) {
                const double d = deviation(s, 0, row);
                p.sum += d * d;
                p.sum2 += d;
            } else if (keepsLeast(op) || keepsGreatest(op)) {
                u64 key;
                if (pickedKey(s, op, 0, row, key)) {
                    p.best = keepsGreatest(op) ? max(p.best, key) : min(p.best, key);
                    p.seen = 1;
                }
            }
        }
        for (int o = 16; o > 0; o >>= 1) {
            Partial q;
            q.count = __shfl_down_sync(0xffffffffu, p.count, o);
            q.lo = __shfl_down_sync(0xffffffffu, p.lo, o);
            q.hi = __shfl_down_sync(0xffffffffu, p.hi, o);
            q.best = __shfl_down_sync(0xffffffffu, p.best, o);
            q.seen = __shfl_down_sync(0xffffffffu, p.seen, o);
            q.sum = __shfl_down_sync(0xffffffffu, p.sum, o);
            q.sum2 = __shfl_down_sync(0xffffffffu, p.sum2, o);
            merge(p, q, op);
        }
        if (lane == 0) warpPartials[warpId] = p;
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int w = 1; w < WARPS; w++) merge(p, warpPartials[w], op);
            if (p.count != 0) atomicAdd(&s.count[0], p.count);
            if (sums128(op)) atomicAdd128(&s.a[0], &s.b[0], p.lo, p.hi);
            if (sumsDoubles(op)) atomicAddDoubles(&s.a[0], &s.b[0], p.sum, p.sum2);
            if (keepsLeast(op)) atomicMin(&s.a[0], p.best);
            if (keepsGreatest(op)) atomicMax(&s.a[0], p.best);
            if (op == OP_SINGLE_VALUE && p.seen) atomicOr(&s.b[0], 1ull);
        }
        __syncthreads();  // warpPartials is reused by the next aggregate
    }
}

// COUNT(a, b, ...): each row's validity across several columns, 1 where none is NULL; a column's
// validity address is 0 when it has no NULLs. One thread per row (grid-stride).
extern "C" __global__ void __launch_bounds__(BLOCK)
all_valid(const u64* validities, int columns, int n, unsigned char* out) {
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
        unsigned char valid = 1;
        for (int c = 0; c < columns; c++) {
            const unsigned char* v = (const unsigned char*)validities[c];
            if (v != nullptr && v[row] == 0) valid = 0;
        }
        out[row] = valid;
    }
}
