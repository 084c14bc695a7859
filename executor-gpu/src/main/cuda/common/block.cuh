// Block-level building blocks shared by the M-BSP kernels: the per-CTA prefix sums (over the
// selection flags of a tile, over one value per thread) and the decoupled look-back that turns
// tile counts into global output offsets in the same pass.
#pragma once
#include <stdint.h>

namespace warp {

constexpr int BLOCK = 256;
constexpr int WARPS = BLOCK / 32;
constexpr int ITEMS = 8;             // rows per thread per tile
constexpr int TILE = BLOCK * ITEMS;  // rows per tile

// Tile status words of the look-back: flag in the top two bits, a count in the rest.
__device__ constexpr unsigned long long STATUS_AGGREGATE = 1ull << 62;
__device__ constexpr unsigned long long STATUS_PREFIX = 2ull << 62;
__device__ constexpr unsigned long long STATUS_VALUE = (1ull << 62) - 1;

__device__ __forceinline__ unsigned laneMaskLt() {
    unsigned m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

// Exclusive positions of the selected rows of a tile of N rows per thread, in row order. Rows
// are laid out item-major (row = item * BLOCK + thread) so that every load is coalesced; `counts`
// is shared scratch of N * WARPS + 1 ints. Returns the tile's selected count to every thread.
template <int N>
__device__ __forceinline__ int tilePositions(const bool (&keep)[N], int (&pos)[N], int* counts) {
    constexpr int COUNTS = N * WARPS;
    constexpr int PER_LANE = COUNTS / 32;
    static_assert(COUNTS % 32 == 0, "the count scan gives every lane the same number of counts");
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
    unsigned ballots[N];
#pragma unroll
    for (int k = 0; k < N; k++) {
        ballots[k] = __ballot_sync(0xffffffffu, keep[k]);
        if (lane == 0) counts[k * WARPS + warpId] = __popc(ballots[k]);
    }
    __syncthreads();
    // One warp scans the counts (k-major, the row order), PER_LANE consecutive ones per lane.
    if (warpId == 0) {
        int mine[PER_LANE];
        int sum = 0;
#pragma unroll
        for (int i = 0; i < PER_LANE; i++) {
            mine[i] = counts[lane * PER_LANE + i];
            sum += mine[i];
        }
        int inclusive = sum;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            int t = __shfl_up_sync(0xffffffffu, inclusive, o);
            if (lane >= o) inclusive += t;
        }
        int running = inclusive - sum;
#pragma unroll
        for (int i = 0; i < PER_LANE; i++) {
            counts[lane * PER_LANE + i] = running;
            running += mine[i];
        }
        if (lane == 31) counts[COUNTS] = inclusive;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < N; k++) {
        pos[k] = counts[k * WARPS + warpId] + __popc(ballots[k] & laneMaskLt());
    }
    int total = counts[COUNTS];
    __syncthreads();
    return total;
}

// Exclusive prefix of `v` over the block's threads in thread order, and the block's total; all
// threads must call it. `shared` holds WARPS + 1 values.
__device__ __forceinline__ unsigned long long blockExclusive(unsigned long long v, unsigned long long* shared,
                                                             unsigned long long& total) {
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
    unsigned long long inclusive = v;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const unsigned long long t = __shfl_up_sync(0xffffffffu, inclusive, o);
        if (lane >= o) inclusive += t;
    }
    if (lane == 31) shared[warpId] = inclusive;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long running = 0;
        for (int w = 0; w < WARPS; w++) {
            const unsigned long long t = shared[w];
            shared[w] = running;
            running += t;
        }
        shared[WARPS] = running;
    }
    __syncthreads();
    const unsigned long long exclusive = shared[warpId] + inclusive - v;
    total = shared[WARPS];
    __syncthreads();  // shared is reused by the next call
    return exclusive;
}

// Decoupled look-back, run by all 32 lanes of one warp: publishes this tile's count, then reads
// the status of 32 predecessors at a time, summing counts back to the nearest tile that knows
// its inclusive prefix; publishes its own and returns the exclusive prefix to every lane. Tiles
// are numbered in the order blocks started (an atomic ticket), so every predecessor is running
// or done and the wait always ends. Reading a window at once keeps the walk short: a single
// thread stepping one tile per memory round trip made the scan the bottleneck of SELECT.
__device__ __forceinline__ unsigned long long lookBack(unsigned long long* status, int tile, int count) {
    volatile unsigned long long* s = status;
    const int lane = threadIdx.x & 31;
    if (lane == 0) {
        __threadfence();
        s[tile] = (tile == 0 ? STATUS_PREFIX : STATUS_AGGREGATE) | (unsigned long long)count;
    }
    if (tile == 0) return 0;
    unsigned long long exclusive = 0;
    for (int base = tile - 1;;) {
        const int index = base - lane;
        // Before the first tile counts as a known prefix of 0.
        const unsigned long long w = index >= 0 ? s[index] : STATUS_PREFIX;
        const unsigned prefixLanes = __ballot_sync(0xffffffffu, (w & STATUS_PREFIX) != 0);
        const unsigned pendingLanes = __ballot_sync(0xffffffffu, w == 0);
        const int nearest = prefixLanes ? __ffs(prefixLanes) - 1 : 31;
        const unsigned needed = nearest == 31 ? 0xffffffffu : (2u << nearest) - 1;
        if (pendingLanes & needed) continue;  // a predecessor has not published yet: read again
        unsigned long long v = lane <= nearest ? (w & STATUS_VALUE) : 0;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        exclusive += __shfl_sync(0xffffffffu, v, 0);
        if (prefixLanes) break;
        base -= 32;
    }
    if (lane == 0) {
        __threadfence();
        s[tile] = STATUS_PREFIX | (exclusive + count);
    }
    return exclusive;
}

}  // namespace warp
