// Decoding stored column chunks on the device (io.warpdb.exec.gpu.decode.DeviceDecoder): the
// cascaded compression of seed paper 000, section 4 (RLE, Delta, frame of reference +
// bit-packing), dictionaries and validity, for all chunks of a column at once. Every kernel takes
// a table of tasks, one per stream of one chunk; a launch serves every chunk.
//
// Streams are read through `Stream` descriptors: bit-packed words are unpacked (and the frame of
// reference added) by whichever kernel consumes the value, so the innermost stream is never
// written out. Chunk bytes are copied to the device as stored: each slice of a chunk that a task
// reads (validity bits, packed words, plain values; not a string dictionary's entries) at an
// 8-byte aligned offset of its region, its region rounded up to 8 bytes. Values inside a slice are
// not aligned (headers are 1, 4 and 8 bytes), so 32- and 64-bit values are assembled from aligned
// loads. Such a load never leaves the slice's region: a value's first byte lies in the slice, so
// the aligned word holding it does; the next aligned word is read only when the value reaches
// into it, so it lies in the slice's region too.
#include "block.cuh"

using namespace warp;

namespace {

// Kinds of Stream, as io.warpdb.exec.gpu.decode.StreamRef.Kind numbers them.
enum StreamKind : int {
    PACKED = 0,       // address: the words (any byte address); reference, width 0..64
    LONGS = 1,        // address: 8-byte aligned int64 values (a decoded intermediate stream)
    ALTERNATING = 2,  // 1, 0, 1, 0, ...: the values of validity runs (valid first)
    PLAIN_BITS = 3,   // address: bits, least significant first
    PLAIN_INT32 = 4,  // address: little-endian int32 values (any byte address)
    PLAIN_INT64 = 5,  // address: little-endian int64 values (any byte address)
    INTS = 6,         // address: 4-byte aligned int32 values (a string code map)
    NONE = 7          // no stream (a store task without dictionary entries)
};

struct Stream {
    const unsigned char* address;
    long long reference;
    int width;
    int kind;
};

// One task: the fields each kernel reads are listed at the kernel. 12 longs, as
// io.warpdb.exec.gpu.decode.DecodeTask writes them.
struct Task {
    Stream values;
    Stream entries;
    unsigned char* out;
    void* aux;
    long long scalar;
    int count;
    int outWidth;
    int flags;
    int firstBlock;  // the task's first block of a flat kernel (tasks in order, blocks contiguous); scans: its first tile sum
    long long unused;
};
static_assert(sizeof(Task) == 96, "the host writes 12 longs per task");

constexpr int ZERO_NULL_ROWS = 1;  // store: rows whose validity byte is 0 get value 0

__device__ __forceinline__ unsigned long long load64(const unsigned char* p) {
    const unsigned long long a = (unsigned long long)p;
    const unsigned long long* base = (const unsigned long long*)(a & ~7ull);
    const int m = (int)(a & 7);
    const unsigned long long lo = base[0];
    if (m == 0) return lo;
    return (lo >> (8 * m)) | (base[1] << (64 - 8 * m));  // 8 * m in 8..56
}

__device__ __forceinline__ unsigned load32(const unsigned char* p) {
    const unsigned long long a = (unsigned long long)p;
    const unsigned* base = (const unsigned*)(a & ~3ull);
    const int m = (int)(a & 3);
    const unsigned lo = base[0];
    if (m == 0) return lo;
    return (lo >> (8 * m)) | (base[1] << (32 - 8 * m));  // 8 * m in 8..24
}

// Value i of a stream (wrapping arithmetic throughout).
__device__ __forceinline__ long long streamValue(const Stream& s, long long i) {
    switch (s.kind) {
        case PACKED: {
            if (s.width == 0) return s.reference;
            const unsigned long long bit = (unsigned long long)i * (unsigned)s.width;
            const unsigned long long word = bit >> 6;
            const int shift = (int)(bit & 63);
            unsigned long long v = load64(s.address + word * 8) >> shift;
            // Only a value that reaches past this word reads the next one (it exists then); shift > 0 here.
            if (shift + s.width > 64) v |= load64(s.address + (word + 1) * 8) << (64 - shift);
            const unsigned long long mask = s.width == 64 ? ~0ull : (1ull << s.width) - 1;
            return (long long)((unsigned long long)s.reference + (v & mask));
        }
        case LONGS: return ((const long long*)s.address)[i];
        case ALTERNATING: return (i & 1) == 0 ? 1 : 0;
        case PLAIN_BITS: return (s.address[i >> 3] >> (i & 7)) & 1;
        case PLAIN_INT32: return (long long)(int)load32(s.address + i * 4);
        case PLAIN_INT64: return (long long)load64(s.address + i * 8);
        case INTS: return ((const int*)s.address)[i];
        default: return 0;
    }
}

__device__ __forceinline__ void storeValue(unsigned char* out, int width, long long i, long long v) {
    if (width == 8) {
        ((long long*)out)[i] = v;
    } else if (width == 4) {
        ((int*)out)[i] = (int)v;
    } else {
        out[i] = (unsigned char)v;
    }
}

// The task of this block of a flat kernel: the last task whose first block is at most blockIdx.x.
__device__ __forceinline__ int taskOfBlock(const Task* tasks, int taskCount) {
    int lo = 0, hi = taskCount - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) >> 1;
        if (tasks[mid].firstBlock <= (int)blockIdx.x) lo = mid; else hi = mid - 1;
    }
    return lo;
}

// Inclusive scan of the terms term(i), i in [tileStart, tileStart + TILE) and below count, by the
// whole block, seeded with `carry` (the terms before the tile summed); each result is passed to
// emit(i, sum) and the tile's total returned. All threads must call it. Every term is read before
// any is emitted, and a thread emits exactly the positions it read, so emit may overwrite the
// terms in place. Wrapping 64-bit sums.
template <typename Term, typename Emit>
__device__ __forceinline__ unsigned long long tileScan(long long tileStart, long long count, unsigned long long carry,
                                                       Term term, Emit emit) {
    __shared__ unsigned long long shared[WARPS + 1];
    // Thread t owns the ITEMS consecutive terms from tileStart + t * ITEMS.
    const long long first = tileStart + (long long)threadIdx.x * ITEMS;
    unsigned long long terms[ITEMS];
    unsigned long long sum = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        terms[k] = first + k < count ? (unsigned long long)term(first + k) : 0ull;
        sum += terms[k];
    }
    unsigned long long tileTotal;
    unsigned long long running = carry + blockExclusive(sum, shared, tileTotal);
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        running += terms[k];
        if (first + k < count) emit(first + k, (long long)running);
    }
    return tileTotal;
}

// The scans (run ends, deltas) reduce, then scan, over all tiles of all tasks, in three launches:
// sumTile (flat) writes tile k's sum of terms to tileSums[k], decode_tile_prefixes (a block per
// task) turns each task's tile sums into inclusive prefixes in place, and rescanTile (flat) scans
// each tile again from the prefix of the tiles before it. tileSums holds one value per block of
// the flat launches, a task's tiles from its firstBlock.

// This block's tile of the task: its terms summed (in any order: wrapping sums) into tileSums.
template <typename Term>
__device__ __forceinline__ void sumTile(const Task& t, unsigned long long* tileSums, Term term) {
    __shared__ unsigned long long shared[WARPS + 1];
    const long long tileStart = (long long)(blockIdx.x - t.firstBlock) * TILE;
    unsigned long long sum = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        const long long i = tileStart + k * BLOCK + threadIdx.x;
        if (i < t.count) sum += (unsigned long long)term(i);
    }
    unsigned long long total;
    blockExclusive(sum, shared, total);
    if (threadIdx.x == 0) tileSums[blockIdx.x] = total;
}

// This block's tile of the task scanned, seeded with the task's tiles before it (their inclusive
// prefix, left by decode_tile_prefixes in the slot before this tile's).
template <typename Term, typename Emit>
__device__ __forceinline__ void rescanTile(const Task& t, const unsigned long long* tilePrefixes, Term term, Emit emit) {
    const int tile = blockIdx.x - t.firstBlock;
    tileScan((long long)tile * TILE, t.count, tile == 0 ? 0ull : tilePrefixes[blockIdx.x - 1], term, emit);
}

// The terms of the scans: run j's length (the run ends are their inclusive prefix), and for Delta
// the first value (scalar) then the count - 1 differences (the values are their inclusive prefix).
__device__ __forceinline__ long long runLength(const Task& t, long long j) { return streamValue(t.values, j); }

__device__ __forceinline__ long long deltaTerm(const Task& t, long long i) {
    return i == 0 ? t.scalar : streamValue(t.values, i - 1);
}

}  // namespace

// Each task's tiles of terms (count terms, count >= 1) summed into tileSums: the first of the
// three launches of a scan (see sumTile). Flat: TILE terms a block.
extern "C" __global__ void __launch_bounds__(BLOCK) decode_run_end_tiles(const Task* tasks, int taskCount,
                                                                         unsigned long long* tileSums) {
    const Task t = tasks[taskOfBlock(tasks, taskCount)];
    sumTile(t, tileSums, [&](long long j) { return runLength(t, j); });
}

extern "C" __global__ void __launch_bounds__(BLOCK) decode_delta_tiles(const Task* tasks, int taskCount,
                                                                       unsigned long long* tileSums) {
    const Task t = tasks[taskOfBlock(tasks, taskCount)];
    sumTile(t, tileSums, [&](long long i) { return deltaTerm(t, i); });
}

// Each task's tile sums (its ceil(count / TILE) slots from firstBlock) into inclusive prefixes, in
// place: the second launch of a scan. One block per task.
extern "C" __global__ void __launch_bounds__(BLOCK) decode_tile_prefixes(const Task* tasks, unsigned long long* tileSums) {
    const Task t = tasks[blockIdx.x];
    unsigned long long* sums = tileSums + t.firstBlock;
    const long long tiles = ((long long)t.count + TILE - 1) / TILE;
    unsigned long long carry = 0;
    for (long long tileStart = 0; tileStart < tiles; tileStart += TILE) {
        carry += tileScan(tileStart, tiles, carry, [&](long long k) { return sums[k]; },
                          [&](long long k, long long prefix) { sums[k] = (unsigned long long)prefix; });
    }
}

// Run ends of RLE streams (and validity runs): aux[j] = run lengths [0, j] summed, j < count;
// values: the run lengths. The last launch of a scan (after decode_run_end_tiles and
// decode_tile_prefixes); flat: TILE runs a block.
extern "C" __global__ void __launch_bounds__(BLOCK) decode_run_ends(const Task* tasks, int taskCount,
                                                                    const unsigned long long* tilePrefixes) {
    const Task t = tasks[taskOfBlock(tasks, taskCount)];
    long long* ends = (long long*)t.aux;
    rescanTile(t, tilePrefixes, [&](long long j) { return runLength(t, j); },
               [&](long long j, long long end) { ends[j] = end; });
}

// Expands runs: out[i] (outWidth bytes) = values[j] for the run j holding position i, the first j
// with aux[j] > i; scalar: the run count (at least 1), count: the positions. Zero-length runs
// (the first validity run may be one) are skipped by that search. Flat: TILE positions a block.
extern "C" __global__ void __launch_bounds__(BLOCK) decode_run_expand(const Task* tasks, int taskCount) {
    const Task t = tasks[taskOfBlock(tasks, taskCount)];
    const long long* ends = (const long long*)t.aux;
    const int runs = (int)t.scalar;
    const long long tileStart = (long long)(blockIdx.x - t.firstBlock) * TILE;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        const long long i = tileStart + k * BLOCK + threadIdx.x;
        if (i < t.count) {
            int lo = 0, hi = runs - 1;  // well-formed runs end at count > i, so the answer exists; clamped otherwise
            while (lo < hi) {
                const int mid = (lo + hi) >> 1;
                if (ends[mid] > i) hi = mid; else lo = mid + 1;
            }
            storeValue(t.out, t.outWidth, i, streamValue(t.values, lo));
        }
    }
}

// Undoes Delta: out[i] (outWidth bytes) = scalar (the first value) + values[0..i) summed, i < count
// (count >= 1; values holds count - 1 differences). The last launch of a scan (after
// decode_delta_tiles and decode_tile_prefixes); flat: TILE values a block.
extern "C" __global__ void __launch_bounds__(BLOCK) decode_deltas(const Task* tasks, int taskCount,
                                                                  const unsigned long long* tilePrefixes) {
    const Task t = tasks[taskOfBlock(tasks, taskCount)];
    rescanTile(t, tilePrefixes, [&](long long i) { return deltaTerm(t, i); },
               [&](long long i, long long value) { storeValue(t.out, t.outWidth, i, value); });
}

// Validity bytes (1 = valid) of chunks without runs: flags 0 all valid, 1 all NULL, 2 the Arrow
// bitmap at values.address. Flat: TILE rows a block.
extern "C" __global__ void __launch_bounds__(BLOCK) decode_validity(const Task* tasks, int taskCount) {
    const Task t = tasks[taskOfBlock(tasks, taskCount)];
    const long long tileStart = (long long)(blockIdx.x - t.firstBlock) * TILE;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        const long long i = tileStart + k * BLOCK + threadIdx.x;
        if (i < t.count) {
            t.out[i] = t.flags == 0 ? 1 : t.flags == 1 ? 0 : (t.values.address[i >> 3] >> (i & 7)) & 1;
        }
    }
}

// Column values: out[i] (outWidth bytes) = values[i], or entries[values[i]] when entries is a
// stream (numeric dictionary entries, string code maps; scalar: the entry count, codes outside
// it give 0), or 0 where flags has ZERO_NULL_ROWS and the validity byte aux[i] is 0. Flat.
extern "C" __global__ void __launch_bounds__(BLOCK) decode_store(const Task* tasks, int taskCount) {
    const Task t = tasks[taskOfBlock(tasks, taskCount)];
    const unsigned char* valid = (const unsigned char*)t.aux;
    const long long tileStart = (long long)(blockIdx.x - t.firstBlock) * TILE;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        const long long i = tileStart + k * BLOCK + threadIdx.x;
        if (i < t.count) {
            long long v;
            if ((t.flags & ZERO_NULL_ROWS) && valid[i] == 0) {
                v = 0;
            } else {
                v = streamValue(t.values, i);
                if (t.entries.kind != NONE) {
                    v = (unsigned long long)v < (unsigned long long)t.scalar ? streamValue(t.entries, v) : 0;
                }
            }
            storeValue(t.out, t.outWidth, i, v);
        }
    }
}
