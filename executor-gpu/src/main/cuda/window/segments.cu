// The segments of sorted rows (window partitions, peer groups): after the head flags
// (aggregate/group_sort.cu's segment_heads) and their exclusive scan (sort/scan.cu), each sorted
// position learns its segment's number and each segment its first position, so that every
// kernel after finds a row's segment bounds in two reads: starts[id], starts[id + 1].
#include "block.cuh"

using namespace warp;

// headsBefore holds n + 1 words, the segment count last. starts receives count + 1 words: each
// segment's first position, then n.
extern "C" __global__ void __launch_bounds__(BLOCK)
segment_ids(const unsigned* heads, const unsigned* headsBefore, int n, int* ids, int* starts) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK) {
        const int id = (int)(headsBefore[i] + heads[i]) - 1;
        ids[i] = id;
        if (heads[i]) starts[id] = (int)i;
        if (i == 0) starts[headsBefore[n]] = n;
    }
}
