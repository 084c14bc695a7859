// M-BSP SELECT fused with PROJECT (Diamos et al., section 4.1): each CTA takes a tile of rows,
// evaluates the predicate per row, ranks the survivors with a shared-memory prefix sum, learns
// the tile's global output offset from a scan of the tile counts (decoupled look-back, so the
// scan needs no extra pass over the input), then evaluates every output for the surviving rows,
// buffers the results in shared memory and writes them out coalesced. The output keeps the
// input order. A filter alone is the case where every output is an input column.
//
// The interpreter's serial loads leave too few memory requests in flight to stream at full
// bandwidth, so a predicate that is a conjunction of `column <op> constant` terms skips it, loading
// all rows of a thread at once; when every output is a plain input column too, the lean SELECT's
// three kernels (below) run with no interpreter at all: the paper's other form of SELECT, each
// CTA filtering its partition, a scan of the partitions' counts, then a gather to the offsets.
// Interpreted expressions get their input rows prefetched into L2 first.
//
// The _wide kernels run programs over DECIMALs of more than 18 digits (vm.cuh's WIDE) and move
// their 16-byte values; the others keep the 64-bit interpreter's registers and shared memory.
#include "vm.cuh"
#include "block.cuh"

using namespace warp;

// Five ints of program position plus the input column to copy (-1: evaluate the program).
struct OutputSpec {
    int start, len, result, width, hasValid, direct;
};

// One term `column <cmp> constant` of a simple predicate; kind 0 int32, 1 int64, 2 double.
struct SimpleTerm {
    int column, kind, cmp, pad;
    long long constant;
};

// A value of `width` bytes; a 16-byte value's high word is `high`.
__device__ __forceinline__ void storeValue(unsigned long long base, int width, long long index, long long value, long long high) {
    if (width == 16) ((longlong2*)base)[index] = make_longlong2(value, high);
    else if (width == 8) ((long long*)base)[index] = value;
    else if (width == 4) ((int*)base)[index] = (int)value;
    else ((unsigned char*)base)[index] = (unsigned char)value;
}

// A value of `width` bytes; of a 16-byte value, the low word (loadHigh has the high one).
__device__ __forceinline__ long long loadWidth(unsigned long long base, int width, long long row) {
    if (width == 16) return __ldg((const long long*)base + 2 * row);
    if (width == 8) return __ldg((const long long*)base + row);
    if (width == 4) return __ldg((const int*)base + row);
    return __ldg((const unsigned char*)base + row);
}

__device__ __forceinline__ long long loadHigh(unsigned long long base, int width, long long row) {
    return width == 16 ? __ldg((const long long*)base + 2 * row + 1) : 0;
}

__device__ __forceinline__ bool validAt(unsigned long long valid, long long row) {
    return valid == 0 || __ldg((const unsigned char*)valid + row) != 0;
}

template <int N>
__device__ __forceinline__ void prefetchRows(const int* used, int numUsed, const unsigned long long* colValues,
                                             long long tileStart, long long rows) {
    for (int u = 0; u < numUsed; u++) {
        const unsigned long long base = colValues[used[u * 2]];
        const int width = used[u * 2 + 1];
#pragma unroll
        for (int k = 0; k < N; k++) {
            long long row = tileStart + k * BLOCK + threadIdx.x;
            if (row < rows) asm volatile("prefetch.global.L2 [%0];" ::"l"(base + row * width));
        }
    }
}

// Whether a non-NULL value satisfies `value <cmp> constant`.
__device__ __forceinline__ bool termHolds(const SimpleTerm& term, long long value) {
    int c;
    if (term.kind == 2) {
        c = compareDoubles(__longlong_as_double(value), __longlong_as_double(term.constant));
    } else {
        c = value < term.constant ? -1 : value > term.constant ? 1 : 0;
    }
    return compareResult(term.cmp, c);
}

// A conjunction of `column <cmp> constant` terms for this thread's N rows, every load issued
// before any is used. NULL counts as not kept.
template <int N>
__device__ __forceinline__ void evaluateSimplePredicate(const VmInput& in, const SimpleTerm* terms, int numTerms,
                                                        long long tileStart, long long rows, bool (&keep)[N]) {
#pragma unroll
    for (int k = 0; k < N; k++) keep[k] = tileStart + k * BLOCK + threadIdx.x < rows;
    for (int t = 0; t < numTerms; t++) {
        const SimpleTerm term = terms[t];
        const unsigned long long base = in.colValues[term.column];
        const unsigned long long valid = in.colValid[term.column];
        const int width = term.kind == 0 ? 4 : 8;
        long long v[N];
#pragma unroll
        for (int k = 0; k < N; k++) {
            v[k] = keep[k] ? loadWidth(base, width, tileStart + k * BLOCK + threadIdx.x) : 0;
        }
#pragma unroll
        for (int k = 0; k < N; k++) {
            keep[k] = keep[k] && termHolds(term, v[k]) && validAt(valid, tileStart + k * BLOCK + threadIdx.x);
        }
    }
}

// The predicate through the simple path when it has terms, else through the interpreter.
template <bool WIDE, int N>
__device__ __forceinline__ void evaluatePredicate(const VmInput& in, const SimpleTerm* terms, int numTerms,
                                                  int predStart, int predLen, int predResult,
                                                  long long tileStart, long long rows, bool (&keep)[N]) {
    if (numTerms > 0) {
        evaluateSimplePredicate<N>(in, terms, numTerms, tileStart, rows, keep);
        return;
    }
#pragma unroll
    for (int k = 0; k < N; k++) {
        long long row = tileStart + k * BLOCK + threadIdx.x;
        keep[k] = false;
        if (row < rows) {
            bool isNull;
            long long high;
            long long t = vmEval<WIDE>(in, predStart, predLen, predResult, row, isNull, high);
            keep[k] = !isNull && t != 0;
        }
    }
}

template <bool WIDE, int N>
__device__ __forceinline__ void selectTiles(const Instr* code, const long long* consts, const int* tables,
               const unsigned long long* colValues, const unsigned long long* colValid,
               const int* used, int numUsed, const SimpleTerm* terms, int numTerms,
               int predStart, int predLen, int predResult,
               const OutputSpec* outputs, int numOutputs,
               const unsigned long long* outValues, const unsigned long long* outValid,
               long long rows, unsigned long long* tileStatus, int* tileTicket,
               unsigned long long* selectedCount, int* error) {
    __shared__ int counts[N * WARPS + 1];
    __shared__ int tileShared;
    __shared__ unsigned long long offsetShared;
    __shared__ long long staging[(BLOCK * N)];
    __shared__ long long stagingHigh[WIDE ? BLOCK * N : 1];
    __shared__ unsigned char stagingValid[(BLOCK * N)];

    VmInput in{code, consts, tables, colValues, colValid, error};
    const long long numTiles = (rows + (BLOCK * N) - 1) / (BLOCK * N);
    while (true) {
        if (threadIdx.x == 0) tileShared = atomicAdd(tileTicket, 1);
        __syncthreads();
        const int tile = tileShared;
        if (tile >= numTiles) return;
        const long long tileStart = (long long)tile * (BLOCK * N);

        bool keep[N];
        prefetchRows<N>(used, numUsed, colValues, tileStart, rows);
        evaluatePredicate<WIDE, N>(in, terms, numTerms, predStart, predLen, predResult, tileStart, rows, keep);
        int pos[N];
        const int count = tilePositions<N>(keep, pos, counts);
        if (threadIdx.x < 32) {
            unsigned long long offset = lookBack(tileStatus, tile, count);
            if (threadIdx.x == 0) {
                offsetShared = offset;
                // The last tile's inclusive prefix is the result size.
                if (tile == numTiles - 1) *selectedCount = offset + count;
            }
        }
        __syncthreads();
        const unsigned long long offset = offsetShared;

        for (int o = 0; o < numOutputs; o++) {
            const OutputSpec spec = outputs[o];
            if (spec.direct >= 0) {
                const unsigned long long base = colValues[spec.direct];
                const unsigned long long valid = colValid[spec.direct];
                long long v[N];
                long long high[WIDE ? N : 1];
#pragma unroll
                for (int k = 0; k < N; k++) {
                    v[k] = keep[k] ? loadWidth(base, spec.width, tileStart + k * BLOCK + threadIdx.x) : 0;
                    if (WIDE) high[k] = keep[k] ? loadHigh(base, spec.width, tileStart + k * BLOCK + threadIdx.x) : 0;
                }
#pragma unroll
                for (int k = 0; k < N; k++) {
                    if (keep[k]) {
                        staging[pos[k]] = v[k];
                        if (WIDE) stagingHigh[pos[k]] = high[k];
                        stagingValid[pos[k]] = validAt(valid, tileStart + k * BLOCK + threadIdx.x);
                    }
                }
            } else {
#pragma unroll
                for (int k = 0; k < N; k++) {
                    if (keep[k]) {
                        bool isNull;
                        long long high;
                        long long value = vmEval<WIDE>(in, spec.start, spec.len, spec.result, tileStart + k * BLOCK + threadIdx.x,
                                                       isNull, high);
                        staging[pos[k]] = isNull ? 0 : value;
                        if (WIDE) stagingHigh[pos[k]] = isNull ? 0 : high;
                        stagingValid[pos[k]] = isNull ? 0 : 1;
                    }
                }
            }
            __syncthreads();
            const unsigned long long base = outValues[o];
            for (int i = threadIdx.x; i < count; i += BLOCK) {
                storeValue(base, spec.width, offset + i, staging[i], WIDE ? stagingHigh[i] : 0);
            }
            if (spec.hasValid) {
                unsigned char* valid = (unsigned char*)outValid[o];
                for (int i = threadIdx.x; i < count; i += BLOCK) valid[offset + i] = stagingValid[i];
            }
            __syncthreads();
        }
    }
}

#define SELECT_PARAMS const Instr* code, const long long* consts, const int* tables, \
    const unsigned long long* colValues, const unsigned long long* colValid, const int* used, int numUsed, \
    const SimpleTerm* terms, int numTerms, int predStart, int predLen, int predResult, const OutputSpec* outputs, \
    int numOutputs, const unsigned long long* outValues, const unsigned long long* outValid, long long rows, \
    unsigned long long* tileStatus, int* tileTicket, unsigned long long* selectedCount, int* error
#define SELECT_ARGS code, consts, tables, colValues, colValid, used, numUsed, terms, numTerms, predStart, predLen, \
    predResult, outputs, numOutputs, outValues, outValid, rows, tileStatus, tileTicket, selectedCount, error

// Three blocks per SM: the interpreter needs registers.
extern "C" __global__ void __launch_bounds__(BLOCK, 3) filter_project(SELECT_PARAMS) {
    selectTiles<false, ITEMS>(SELECT_ARGS);
}

extern "C" __global__ void __launch_bounds__(BLOCK, 2) filter_project_wide(SELECT_PARAMS) {
    selectTiles<true, ITEMS>(SELECT_ARGS);
}

// ---- The lean SELECT: a conjunction of `column <op> constant` terms, every output an input column ----
//
// Three kernels instead of the tile loop above, so that no block ever waits on another:
//   select_mask    streams the predicate's columns once and writes one bit per row (1/64 of an
//                  8-byte column) and each chunk's count of kept rows;
//   select_offsets scans the chunk counts into output offsets (one block; a chunk is 64 K rows);
//   select_gather  reads the bits and moves only the kept rows, warp by warp: a lane per kept row,
//                  so loads touch only the kept rows' sectors and stores are coalesced.
// Profiled on an H100 (ncu), the tile loop spent about 104 instructions per 32 rows, spilled
// registers and waited at block barriers 39 % of the time; its per-tile chain of ticket, count
// scan and look-back left the memory idle (docs/benchmarks.md).
constexpr int MAX_LEAN_TERMS = 8;
constexpr int CHUNK_ROWS = 1 << 16;
constexpr int MASK_ITEMS = 8;  // 32-row words a warp of select_mask takes at a time

struct TermRange {
    long long lo, hi;                   // integers: the range kept (rejected when `rejects`)
    unsigned long long values, valid;   // the column's values and validity (0: none)
    int kind, cmp, rejects, pad;        // kind as SimpleTerm's; doubles keep cmp and the constant in lo
};

// A term as the closed range of values it keeps (NE: the one it rejects).
__device__ __forceinline__ TermRange rangeOf(const SimpleTerm& t, const unsigned long long* colValues,
                                             const unsigned long long* colValid) {
    const long long c = t.constant;
    const long long MIN = (long long)(1ull << 63), MAX = ~MIN;
    TermRange r{MIN, MAX, colValues[t.column], colValid[t.column], t.kind, t.cmp, 0, 0};
    if (t.kind == 2) {
        r.lo = c;
        return r;
    }
    switch (t.cmp) {
        case 0: r.lo = r.hi = c; break;                   // EQ
        case 1: r.lo = r.hi = c; r.rejects = 1; break;     // NE
        case 2: if (c == MIN) { r.lo = MAX; r.hi = MIN; } else r.hi = c - 1; break;  // LT
        case 3: r.hi = c; break;                           // LE
        case 4: if (c == MAX) { r.lo = MAX; r.hi = MIN; } else r.lo = c + 1; break;  // GT
        default: r.lo = c; break;                          // GE
    }
    return r;
}

// Narrows `keep` to the rows first + 32 k whose value of `t`'s column (of type T) passes it; rows
// already dropped are not loaded.
template <int N, typename T>
__device__ __forceinline__ void keepPassing(const TermRange& t, long long first, bool (&keep)[N]) {
    const T* base = (const T*)t.values + first;
    T v[N];
#pragma unroll
    for (int k = 0; k < N; k++) v[k] = keep[k] ? __ldg(base + 32 * k) : T(0);
#pragma unroll
    for (int k = 0; k < N; k++) {
        bool passes;
        if (sizeof(T) == 8 && t.kind == 2) {
            passes = compareResult(t.cmp, compareDoubles(__longlong_as_double(v[k]), __longlong_as_double(t.lo)));
        } else {
            passes = ((long long)v[k] >= t.lo && (long long)v[k] <= t.hi) != (t.rejects != 0);
        }
        keep[k] = keep[k] && passes;
    }
    if (t.valid != 0) {
        const unsigned char* valid = (const unsigned char*)t.valid + first;
#pragma unroll
        for (int k = 0; k < N; k++) keep[k] = keep[k] && __ldg(valid + 32 * k) != 0;
    }
}

// Pass 1: mask[w] bit l says whether row 32 w + l is kept; counts[c] how many rows chunk c keeps.
// A warp takes MASK_ITEMS consecutive words at a time, a lane a row of each, all loads first.
extern "C" __global__ void __launch_bounds__(BLOCK) select_mask(const unsigned long long* colValues,
        const unsigned long long* colValid, const SimpleTerm* terms, int numTerms, long long rows,
        unsigned* mask, unsigned* counts) {
    __shared__ TermRange ranges[MAX_LEAN_TERMS];
    __shared__ unsigned warpCounts[WARPS];
    if (threadIdx.x < numTerms) ranges[threadIdx.x] = rangeOf(terms[threadIdx.x], colValues, colValid);
    __syncthreads();
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
    const long long numChunks = (rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
    for (long long chunk = blockIdx.x; chunk < numChunks; chunk += gridDim.x) {
        unsigned kept = 0;
        const long long chunkEnd = min(rows, (chunk + 1) * CHUNK_ROWS);
        for (long long group = chunk * CHUNK_ROWS + (long long)warpId * 32 * MASK_ITEMS; group < chunkEnd;
             group += (long long)BLOCK * MASK_ITEMS) {
            const long long first = group + lane;
            bool keep[MASK_ITEMS];
#pragma unroll
            for (int k = 0; k < MASK_ITEMS; k++) keep[k] = first + 32 * k < chunkEnd;
            for (int t = 0; t < numTerms; t++) {
                const TermRange& range = ranges[t];
                if (range.kind == 0) keepPassing<MASK_ITEMS, int>(range, first, keep);
                else keepPassing<MASK_ITEMS, long long>(range, first, keep);
            }
            unsigned word = 0;
#pragma unroll
            for (int k = 0; k < MASK_ITEMS; k++) {
                const unsigned ballot = __ballot_sync(0xffffffffu, keep[k]);
                kept += __popc(ballot);
                if (lane == k) word = ballot;
            }
            // Lane k writes word k: one store of consecutive words per warp.
            if (lane < MASK_ITEMS && group + 32 * lane < chunkEnd) mask[group / 32 + lane] = word;
        }
        if (lane == 0) warpCounts[warpId] = kept;
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned total = 0;
#pragma unroll
            for (int w = 0; w < WARPS; w++) total += warpCounts[w];
            counts[chunk] = total;
        }
        __syncthreads();
    }
}

// Pass 2, one block: offsets[c] = the kept rows of the chunks before c; *selectedCount = all kept rows.
extern "C" __global__ void __launch_bounds__(BLOCK) select_offsets(const unsigned* counts, long long numChunks,
        unsigned long long* offsets, unsigned long long* selectedCount) {
    __shared__ unsigned long long scratch[WARPS + 1];
    unsigned long long carry = 0;
    for (long long base = 0; base < numChunks; base += BLOCK) {
        const long long c = base + threadIdx.x;
        unsigned long long total;
        const unsigned long long before = blockExclusive(c < numChunks ? counts[c] : 0, scratch, total);
        if (c < numChunks) offsets[c] = carry + before;
        carry += total;
    }
    if (threadIdx.x == 0) *selectedCount = carry;
}

// Dense words: moves a warp's kept rows of one column (type T) out of its 32 words, 8 words at a time with all
// their loads issued before the stores: lane l of word j holds row 32 (firstWord + j) + l, lane j's
// `exclusive` counts the kept rows before word j from `start`, and a kept row goes to start + the
// kept rows before it.
template <typename T>
__device__ __forceinline__ void moveKept(unsigned long long in, unsigned long long out, long long firstWord, unsigned word,
                                         unsigned exclusive, unsigned long long start) {
    const int lane = threadIdx.x & 31;
    const unsigned laneBelow = (1u << lane) - 1;
    for (int j0 = 0; j0 < 32; j0 += 8) {
        T v[8];
        bool kept[8];
        unsigned long long at[8];
#pragma unroll
        for (int u = 0; u < 8; u++) {
            const unsigned wordJ = __shfl_sync(0xffffffffu, word, j0 + u);
            kept[u] = (wordJ >> lane) & 1u;
            at[u] = start + __shfl_sync(0xffffffffu, exclusive, j0 + u) + __popc(wordJ & laneBelow);
            v[u] = kept[u] ? __ldg((const T*)in + (firstWord + j0 + u) * 32 + lane) : T(0);
        }
#pragma unroll
        for (int u = 0; u < 8; u++) {
            if (kept[u]) ((T*)out)[at[u]] = v[u];
        }
    }
}

// Sparse words: moves kept row `row` of one column (type T) to `at`; no row (-1) moves nothing.
template <typename T>
__device__ __forceinline__ void moveRow(unsigned long long in, unsigned long long out, long long row, unsigned long long at) {
    if (row >= 0) ((T*)out)[at] = __ldg((const T*)in + row);
}

// Pass 3: each block takes chunks; a warp takes 32 consecutive words (1,024 rows) of its chunk at
// a time and learns their output positions from the block's scan of the words' counts. A warp
// whose words keep few rows moves them 32 at a time by rank: lane i finds the word holding kept
// row r + i (a binary search over the words' running counts, by shuffles) and the bit within it
// (__fns), so the work goes by kept rows, not by words, and each round's position serves every
// output column. Words that keep many rows are moved word by word (moveKept), which costs less per
// row there. On the H100 (ncu, 1 % kept) the word-by-word loop alone was issue-bound: 67 % of the
// SMs' issue rate and 17 % of DRAM bandwidth; by rank, SELECT at 1 % went from 64 to 80 % of copy,
// while q01's 98 % kept went from 10.4 to 11.6 ms.
constexpr unsigned SPARSE_WARP_KEPT = 384;  // of a warp's 1,024 rows: below this, moved by rank

extern "C" __global__ void __launch_bounds__(BLOCK) select_gather(const unsigned long long* colValues,
        const unsigned long long* colValid, const OutputSpec* outputs, int numOutputs,
        const unsigned long long* outValues, const unsigned long long* outValid, long long rows,
        const unsigned* mask, const unsigned long long* offsets) {
    __shared__ unsigned long long scratch[WARPS + 1];
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
    const long long numChunks = (rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
    const long long numWords = (rows + 31) / 32;
    constexpr int WORDS_PER_STEP = BLOCK;  // 32 words a warp
    for (long long chunk = blockIdx.x; chunk < numChunks; chunk += gridDim.x) {
        unsigned long long position = offsets[chunk];
        const long long chunkWords = min(numWords, (chunk + 1) * (CHUNK_ROWS / 32));
        for (long long step = chunk * (CHUNK_ROWS / 32); step < chunkWords; step += WORDS_PER_STEP) {
            const long long w = step + warpId * 32 + lane;  // this lane's word
            const unsigned word = w < chunkWords ? mask[w] : 0;
            const unsigned count = __popc(word);
            unsigned long long stepTotal;
            const unsigned exclusive = (unsigned)blockExclusive(count, scratch, stepTotal);
            // Kept rows before this warp's words (from the step's start), and before and up to this lane's word within them.
            const unsigned warpStart = __shfl_sync(0xffffffffu, exclusive, 0);
            const unsigned before = exclusive - warpStart, upTo = before + count;
            const unsigned warpKept = __shfl_sync(0xffffffffu, upTo, 31);
            const unsigned long long outStart = position + warpStart;
            position += stepTotal;
            const long long firstWord = step + warpId * 32;
            if (warpKept > SPARSE_WARP_KEPT) {
                for (int o = 0; o < numOutputs; o++) {
                    const OutputSpec spec = outputs[o];
                    const unsigned long long in = colValues[spec.direct];
                    if (spec.width == 8) moveKept<long long>(in, outValues[o], firstWord, word, before, outStart);
                    else if (spec.width == 4) moveKept<int>(in, outValues[o], firstWord, word, before, outStart);
                    else moveKept<unsigned char>(in, outValues[o], firstWord, word, before, outStart);
                    if (spec.hasValid) {
                        moveKept<unsigned char>(colValid[spec.direct], outValid[o], firstWord, word, before, outStart);
                    }
                }
                continue;
            }
            for (unsigned rank0 = 0; rank0 < warpKept; rank0 += 32) {
                const unsigned rank = rank0 + lane;
                // The word holding kept row `rank`: how many words keep rows up to at most `rank`.
                int j = 0;
#pragma unroll
                for (int half = 16; half > 0; half >>= 1) {
                    if (__shfl_sync(0xffffffffu, upTo, j + half - 1) <= rank) j += half;
                }
                const unsigned wordJ = __shfl_sync(0xffffffffu, word, j & 31);
                const unsigned beforeJ = __shfl_sync(0xffffffffu, before, j & 31);
                const long long row = rank < warpKept ? 32 * (firstWord + j) + __fns(wordJ, 0, rank - beforeJ + 1) : -1;
                const unsigned long long at = outStart + rank;
                for (int o = 0; o < numOutputs; o++) {
                    const OutputSpec spec = outputs[o];
                    const unsigned long long in = colValues[spec.direct];
                    if (spec.width == 8) moveRow<long long>(in, outValues[o], row, at);
                    else if (spec.width == 4) moveRow<int>(in, outValues[o], row, at);
                    else moveRow<unsigned char>(in, outValues[o], row, at);
                    if (spec.hasValid) moveRow<unsigned char>(colValid[spec.direct], outValid[o], row, at);
                }
            }
        }
    }
}

// The floor SELECT is measured against (GpuOperatorBench): an 8-byte column read once with vector loads,
// counting `value < constant`.
extern "C" __global__ void __launch_bounds__(BLOCK) read_count(const long long* values, long long rows, long long constant,
                                                              unsigned long long* count) {
    unsigned long long c = 0;
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; 2 * i < rows; i += (long long)gridDim.x * BLOCK) {
        const longlong2 p = __ldg((const longlong2*)values + i);
        c += (p.x < constant) + (2 * i + 1 < rows && p.y < constant);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(count, c);
}

// PROJECT without a predicate: a transform pass, every row in place, so no scan is needed. Each
// thread evaluates PROJECT_ROWS rows together (a block-strided group), so their loads overlap.
constexpr int PROJECT_ROWS = 4;

template <bool WIDE>
__device__ __forceinline__ void projectRows(const Instr* code, const long long* consts, const int* tables,
        const unsigned long long* colValues, const unsigned long long* colValid,
        const OutputSpec* outputs, int numOutputs,
        const unsigned long long* outValues, const unsigned long long* outValid,
        long long rows, int* error) {
    VmInput in{code, consts, tables, colValues, colValid, error};
    const long long group = (long long)BLOCK * PROJECT_ROWS;
    for (long long first = (long long)blockIdx.x * group + threadIdx.x; first - threadIdx.x < rows; first += (long long)gridDim.x * group) {
        long long r[PROJECT_ROWS];
        bool active[PROJECT_ROWS];
#pragma unroll
        for (int k = 0; k < PROJECT_ROWS; k++) {
            r[k] = first + (long long)k * BLOCK;
            active[k] = r[k] < rows;
        }
        for (int o = 0; o < numOutputs; o++) {
            const OutputSpec spec = outputs[o];
            long long value[PROJECT_ROWS];
            long long high[PROJECT_ROWS];
            bool isNull[PROJECT_ROWS];
            vmEvalRows<PROJECT_ROWS, WIDE>(in, spec.start, spec.len, spec.result, r, active, value, high, isNull);
#pragma unroll
            for (int k = 0; k < PROJECT_ROWS; k++) {
                if (!active[k]) continue;
                storeValue(outValues[o], spec.width, r[k], isNull[k] ? 0 : value[k], isNull[k] ? 0 : high[k]);
                if (spec.hasValid) ((unsigned char*)outValid[o])[r[k]] = isNull[k] ? 0 : 1;
            }
        }
    }
}

#define PROJECT_PARAMS const Instr* code, const long long* consts, const int* tables, \
    const unsigned long long* colValues, const unsigned long long* colValid, const OutputSpec* outputs, int numOutputs, \
    const unsigned long long* outValues, const unsigned long long* outValid, long long rows, int* error
#define PROJECT_ARGS code, consts, tables, colValues, colValid, outputs, numOutputs, outValues, outValid, rows, error

extern "C" __global__ void __launch_bounds__(BLOCK) project(PROJECT_PARAMS) {
    projectRows<false>(PROJECT_ARGS);
}

extern "C" __global__ void __launch_bounds__(BLOCK) project_wide(PROJECT_PARAMS) {
    projectRows<true>(PROJECT_ARGS);
}

// ---- Expression-specialised kernels (FilterProject's default; -Dwarpdb.gpu.select.kernel=v1 runs only the kernels above) ----

// Rows `row` (even) and `row + 1` of a column of `width` bytes from `base` (a tile's first row),
// reading only those below `limit`. Pool blocks are 256-byte aligned and tiles hold an even
// number of rows, so the vector load is aligned. Rows within a tile are ints (fewer registers).
__device__ __forceinline__ void loadPair(unsigned long long base, int width, int row, int limit,
                                         long long& v0, long long& v1) {
    if (row + 1 < limit) {
        if (width == 8) {
            const longlong2 p = __ldg((const longlong2*)base + (row >> 1));
            v0 = p.x; v1 = p.y;
        } else if (width == 4) {
            const int2 p = __ldg((const int2*)base + (row >> 1));
            v0 = p.x; v1 = p.y;
        } else {
            const uchar2 p = __ldg((const uchar2*)base + (row >> 1));
            v0 = p.x; v1 = p.y;
        }
    } else {
        v0 = row < limit ? loadWidth(base, width, row) : 0;
        v1 = 0;
    }
}

// Whether rows `row` and `row + 1` are not NULL (valid: the validity bytes, 0 for none).
__device__ __forceinline__ void validPair(unsigned long long valid, int row, int limit, bool& ok0, bool& ok1) {
    long long b0 = 1, b1 = 1;
    if (valid != 0) loadPair(valid, 1, row, limit, b0, b1);
    ok0 = b0 != 0; ok1 = b1 != 0;
}

// project_chain: PROJECT of one output that is a chain of exact integer arithmetic over columns
// and constants (io.warpdb.exec.gpu.expr.ArithmeticChain says which programs are one): t = leaf 0
// op leaf 1, then t = t op leaf s+1 (or leaf s+1 op t) for each further step, every operation as
// the interpreter's ADD_I / SUB_I / MUL_I (exact in 128 bits, 22003 where the result leaves
// int64; a NULL operand makes the result NULL and raises nothing from there on). The values live
// in registers, not in the interpreter's slots in local memory; a thread takes CHAIN_PAIRS pairs
// of rows, each pair one vector load per column leaf and one vector store.
constexpr int CHAIN_LEAVES = 4;
constexpr int CHAIN_STEPS = CHAIN_LEAVES - 1;
constexpr int CHAIN_PAIRS = 2;

struct ChainLeaf {
    int column, width;  // column -1: the constant
    long long constant;
};
struct ChainStep {
    int op, leafFirst;  // op an Opcode; leafFirst: leaf op t
};
struct ArithmeticChain {
    ChainLeaf leaves[CHAIN_LEAVES];
    ChainStep steps[CHAIN_STEPS];
    int numSteps, pad;
};

__device__ __forceinline__ long long chainOp(int op, long long x, long long y, bool& overflow) {
    const __int128 r = op == OP_ADD_I ? (__int128)x + y : op == OP_SUB_I ? (__int128)x - y : (__int128)x * y;
    if (!fits64(r)) {
        overflow = true;
        return 0;
    }
    return (long long)r;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
project_chain(const unsigned long long* colValues, const unsigned long long* colValid, const ArithmeticChain* chain,
              unsigned long long outValues, unsigned long long outValid, long long rows, int* error) {
    const int numSteps = chain->numSteps;
    const long long stride = (long long)gridDim.x * BLOCK * 2 * CHAIN_PAIRS;
    bool overflow = false;
    for (long long first = ((long long)blockIdx.x * BLOCK * CHAIN_PAIRS + threadIdx.x) * 2; first < rows; first += stride) {
        long long x[CHAIN_LEAVES][CHAIN_PAIRS][2];
        unsigned nulls[CHAIN_PAIRS][2];  // bit l: leaf l is NULL
#pragma unroll
        for (int k = 0; k < CHAIN_PAIRS; k++) nulls[k][0] = nulls[k][1] = 0;
#pragma unroll
        for (int l = 0; l < CHAIN_LEAVES; l++) {
            const ChainLeaf leaf = chain->leaves[l];
#pragma unroll
            for (int k = 0; k < CHAIN_PAIRS; k++) {
                x[l][k][0] = x[l][k][1] = leaf.constant;
                const long long row = first + 2LL * BLOCK * k;
                if (l > numSteps || leaf.column < 0 || row >= rows) continue;
                const int limit = (int)min(rows - row, 2LL);
                loadPair(colValues[leaf.column] + row * leaf.width, leaf.width, 0, limit, x[l][k][0], x[l][k][1]);
                bool ok0, ok1;
                const unsigned long long valid = colValid[leaf.column];
                validPair(valid == 0 ? 0 : valid + row, 0, limit, ok0, ok1);
                nulls[k][0] |= ok0 ? 0u : 1u << l;
                nulls[k][1] |= ok1 ? 0u : 1u << l;
            }
        }
#pragma unroll
        for (int k = 0; k < CHAIN_PAIRS; k++) {
            const long long row = first + 2LL * BLOCK * k;
            if (row >= rows) continue;
            long long value[2];
            unsigned char valid[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                bool isNull = (nulls[k][e] & 3u) != 0;
                long long t = isNull ? 0 : chainOp(chain->steps[0].op, x[0][k][e], x[1][k][e], overflow);
#pragma unroll
                for (int s = 1; s < CHAIN_STEPS; s++) {
                    if (s >= numSteps) break;
                    isNull = isNull || (nulls[k][e] >> (s + 1) & 1u) != 0;
                    if (isNull) continue;
                    const ChainStep step = chain->steps[s];
                    t = step.leafFirst ? chainOp(step.op, x[s + 1][k][e], t, overflow) : chainOp(step.op, t, x[s + 1][k][e], overflow);
                }
                value[e] = isNull ? 0 : t;
                valid[e] = isNull ? 0 : 1;
            }
            if (row + 1 < rows) {
                ((longlong2*)outValues)[row >> 1] = make_longlong2(value[0], value[1]);
                if (outValid != 0) ((uchar2*)outValid)[row >> 1] = make_uchar2(valid[0], valid[1]);
            } else {
                ((long long*)outValues)[row] = value[0];
                if (outValid != 0) ((unsigned char*)outValid)[row] = valid[0];
            }
        }
    }
    if (overflow) atomicCAS(error, 0, ERR_OVERFLOW);
}
