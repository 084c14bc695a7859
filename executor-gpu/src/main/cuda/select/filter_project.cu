// M-BSP SELECT fused with PROJECT (Diamos et al., section 4.1): each CTA takes a tile of rows,
// evaluates the predicate per row, ranks the survivors with a shared-memory prefix sum, learns
// the tile's global output offset from a scan of the tile counts (decoupled look-back, so the
// scan needs no extra pass over the input), then evaluates every output expression for the
// surviving rows, buffers the results in shared memory and writes them out coalesced. The
// output keeps the input order. A filter alone is the case where the outputs are column loads.
#include "vm.cuh"
#include "block.cuh"

using namespace warp;

// Output descriptor, five ints per output: program start, length, result slot, width (1, 4 or 8
// bytes), whether a validity array is written.
struct OutputSpec {
    int start, len, result, width, hasValid;
};

__device__ __forceinline__ void storeValue(unsigned long long base, int width, long long index, long long value) {
    if (width == 8) ((long long*)base)[index] = value;
    else if (width == 4) ((int*)base)[index] = (int)value;
    else ((unsigned char*)base)[index] = (unsigned char)value;
}

extern "C" __global__ void __launch_bounds__(BLOCK)
filter_project(const Instr* code, const long long* consts, const int* tables,
               const unsigned long long* colValues, const unsigned long long* colValid,
               int predStart, int predLen, int predResult,
               const OutputSpec* outputs, int numOutputs,
               const unsigned long long* outValues, const unsigned long long* outValid,
               long long rows, unsigned long long* tileStatus, int* tileTicket,
               unsigned long long* selectedCount, int* error) {
    __shared__ int counts[ITEMS * WARPS + 1];
    __shared__ int tileShared;
    __shared__ unsigned long long offsetShared;
    __shared__ long long staging[TILE];
    __shared__ unsigned char stagingValid[TILE];

    VmInput in{code, consts, tables, colValues, colValid, error};
    const long long numTiles = (rows + TILE - 1) / TILE;
    while (true) {
        if (threadIdx.x == 0) tileShared = atomicAdd(tileTicket, 1);
        __syncthreads();
        const int tile = tileShared;
        if (tile >= numTiles) return;
        const long long tileStart = (long long)tile * TILE;

        bool keep[ITEMS];
#pragma unroll
        for (int k = 0; k < ITEMS; k++) {
            long long row = tileStart + k * BLOCK + threadIdx.x;
            keep[k] = false;
            if (row < rows) {
                bool isNull;
                long long t = vmEval(in, predStart, predLen, predResult, row, isNull);
                keep[k] = !isNull && t != 0;
            }
        }
        int pos[ITEMS];
        const int count = tilePositions(keep, pos, counts);
        if (threadIdx.x == 0) {
            offsetShared = lookBack(tileStatus, tile, count);
            if (tile == numTiles - 1) {
                // The last tile's inclusive prefix is the result size.
                *selectedCount = offsetShared + count;
            }
        }
        __syncthreads();
        const unsigned long long offset = offsetShared;

        for (int o = 0; o < numOutputs; o++) {
            const OutputSpec spec = outputs[o];
#pragma unroll
            for (int k = 0; k < ITEMS; k++) {
                if (keep[k]) {
                    bool isNull;
                    long long row = tileStart + k * BLOCK + threadIdx.x;
                    long long value = vmEval(in, spec.start, spec.len, spec.result, row, isNull);
                    staging[pos[k]] = isNull ? 0 : value;
                    stagingValid[pos[k]] = isNull ? 0 : 1;
                }
            }
            __syncthreads();
            const unsigned long long base = outValues[o];
            for (int i = threadIdx.x; i < count; i += BLOCK) {
                storeValue(base, spec.width, offset + i, staging[i]);
            }
            if (spec.hasValid) {
                unsigned char* valid = (unsigned char*)outValid[o];
                for (int i = threadIdx.x; i < count; i += BLOCK) valid[offset + i] = stagingValid[i];
            }
            __syncthreads();
        }
    }
}

// PROJECT without a predicate: a transform pass, every row in place, so no scan is needed.
extern "C" __global__ void __launch_bounds__(BLOCK)
project(const Instr* code, const long long* consts, const int* tables,
        const unsigned long long* colValues, const unsigned long long* colValid,
        const OutputSpec* outputs, int numOutputs,
        const unsigned long long* outValues, const unsigned long long* outValid,
        long long rows, int* error) {
    VmInput in{code, consts, tables, colValues, colValid, error};
    const long long stride = (long long)gridDim.x * BLOCK;
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < rows; row += stride) {
        for (int o = 0; o < numOutputs; o++) {
            const OutputSpec spec = outputs[o];
            bool isNull;
            long long value = vmEval(in, spec.start, spec.len, spec.result, row, isNull);
            storeValue(outValues[o], spec.width, row, isNull ? 0 : value);
            if (spec.hasValid) ((unsigned char*)outValid[o])[row] = isNull ? 0 : 1;
        }
    }
}
