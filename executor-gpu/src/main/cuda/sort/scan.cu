// Exclusive prefix sum of unsigned ints in one pass (decoupled look-back, block.cuh); out[n]
// receives the total. `status` (one word per tile) and `ticket` must be zero on entry.
#include "block.cuh"

using namespace warp;

extern "C" __global__ void __launch_bounds__(BLOCK)
exclusive_scan(const unsigned* in, unsigned* out, int n, unsigned long long* status, int* ticket) {
    __shared__ int tileShared;
    __shared__ unsigned warpTotals[WARPS];
    __shared__ unsigned long long tilePrefix;
    if (threadIdx.x == 0) tileShared = atomicAdd(ticket, 1);
    __syncthreads();
    const int tile = tileShared;
    const int lane = threadIdx.x & 31, warpId = threadIdx.x >> 5;
    // Thread t owns the ITEMS consecutive values starting at tile * TILE + t * ITEMS.
    long long first = (long long)tile * TILE + (long long)threadIdx.x * ITEMS;
    unsigned v[ITEMS];
    unsigned sum = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        v[k] = first + k < n ? in[first + k] : 0u;
        sum += v[k];
    }
    unsigned inclusive = sum;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        unsigned t = __shfl_up_sync(0xffffffffu, inclusive, o);
        if (lane >= o) inclusive += t;
    }
    if (lane == 31) warpTotals[warpId] = inclusive;
    __syncthreads();
    if (warpId == 0) {
        // Lane 0 turns the warp totals into exclusive offsets; the whole warp runs the look-back.
        unsigned tileTotal = 0;
        if (lane == 0) {
            for (int w = 0; w < WARPS; w++) {
                unsigned t = warpTotals[w];
                warpTotals[w] = tileTotal;
                tileTotal += t;
            }
        }
        tileTotal = __shfl_sync(0xffffffffu, tileTotal, 0);
        unsigned long long prefix = lookBack(status, tile, (int)tileTotal);
        if (lane == 0) {
            tilePrefix = prefix;
            if ((long long)(tile + 1) * TILE >= n) out[n] = (unsigned)(prefix + tileTotal);
        }
    }
    __syncthreads();
    unsigned running = (unsigned)tilePrefix + warpTotals[warpId] + inclusive - sum;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        if (first + k < n) out[first + k] = running;
        running += v[k];
    }
}
