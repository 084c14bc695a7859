// Gathering rows by id: out[i] = in[ids[i]] for values of 1, 4 or 8 bytes and validity bytes;
// and the id sequence start, start+1, ... that windows and identity permutations use.
#include "block.cuh"

using namespace warp;

extern "C" __global__ void __launch_bounds__(BLOCK)
gather(const void* in, void* out, int width, const int* ids, int count) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        long long row = ids[i];
        if (width == 8) {
            ((unsigned long long*)out)[i] = ((const unsigned long long*)in)[row];
        } else if (width == 4) {
            ((unsigned*)out)[i] = ((const unsigned*)in)[row];
        } else {
            ((unsigned char*)out)[i] = ((const unsigned char*)in)[row];
        }
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
sequence(int* out, int start, int count) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        out[i] = start + (int)i;
    }
}
