// ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST and NTILE of every sorted position at
// once, from its partition's and peer group's bounds (segments.cu), by the rules of the CPU's
// RankingEvaluator: no pass over the rows of a partition.
#include "block.cuh"

using namespace warp;

// Functions: the ordinals of io.warpdb.core.plan.WindowFunction.
constexpr int ROW_NUMBER = 0;
constexpr int RANK = 1;
constexpr int DENSE_RANK = 2;
constexpr int PERCENT_RANK = 3;
constexpr int CUME_DIST = 4;
constexpr int NTILE = 5;

// The 1-based bucket of the row'th row (0-based) of a partition of size rows, the first
// size % buckets buckets one row larger.
__device__ __forceinline__ long long ntile(long long row, long long size, long long buckets) {
    const long long small = size / buckets;
    const long long large = small + 1;
    const long long largeBuckets = size % buckets;
    const long long inLarge = largeBuckets * large;
    return row < inLarge ? row / large + 1 : largeBuckets + (row - inLarge) / small + 1;
}

// width: bytes per result (4 INTEGER, 8 BIGINT or DOUBLE); PERCENT_RANK and CUME_DIST write doubles.
extern "C" __global__ void __launch_bounds__(BLOCK)
ranking(int function, long long buckets, const int* partId, const int* partStarts, const int* peerId,
        const int* peerStarts, int n, int width, void* out) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int part = partId[i], peer = peerId[i];
        const long long from = partStarts[part], size = partStarts[part + 1] - from;
        const long long rank = peerStarts[peer] - from + 1;
        long long value = 0;
        double fraction = 0;
        switch (function) {
            case ROW_NUMBER: value = i - from + 1; break;
            case RANK: value = rank; break;
            case DENSE_RANK: value = peer - peerId[from] + 1; break;
            case PERCENT_RANK: fraction = size == 1 ? 0.0 : (double)(rank - 1) / (double)(size - 1); break;
            case CUME_DIST: fraction = (double)(peerStarts[peer + 1] - from) / (double)size; break;
            case NTILE: value = ntile(i - from, size, buckets); break;
        }
        if (function == PERCENT_RANK || function == CUME_DIST) ((double*)out)[i] = fraction;
        else if (width == 8) ((long long*)out)[i] = value;
        else ((int*)out)[i] = (int)value;
    }
}
