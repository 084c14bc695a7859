// Gathering rows by id: out[i] = in[ids[i]] for values of 1, 4, 8 or 16 bytes (wide DECIMALs) and validity bytes
// (or NULL where an id is negative);
// and the id sequence start, start+1, ... that windows and identity permutations use.
#include "block.cuh"

using namespace warp;

extern "C" __global__ void __launch_bounds__(BLOCK)
gather(const void* in, void* out, int width, const int* ids, int count) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        long long row = ids[i];
        if (width == 16) {
            ((longlong2*)out)[i] = ((const longlong2*)in)[row];
        } else if (width == 8) {
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

// As gather, for ids that may be negative (an outer join's missing row): those rows get value 0
// and validity 0; the others their value and validity (1 when the input has none).
extern "C" __global__ void __launch_bounds__(BLOCK)
gather_or_null(const void* in, const unsigned char* inValid, void* out, unsigned char* outValid, int width, const int* ids,
               int count) {
    for (long long i = (long long)blockIdx.x * BLOCK + threadIdx.x; i < count; i += (long long)gridDim.x * BLOCK) {
        const long long row = ids[i];
        const bool missing = row < 0;
        if (width == 16) {
            ((longlong2*)out)[i] = missing ? make_longlong2(0, 0) : ((const longlong2*)in)[row];
        } else if (width == 8) {
            ((unsigned long long*)out)[i] = missing ? 0ull : ((const unsigned long long*)in)[row];
        } else if (width == 4) {
            ((unsigned*)out)[i] = missing ? 0u : ((const unsigned*)in)[row];
        } else {
            ((unsigned char*)out)[i] = missing ? (unsigned char)0 : ((const unsigned char*)in)[row];
        }
        outValid[i] = missing ? (unsigned char)0 : inValid == nullptr ? (unsigned char)1 : inValid[row];
    }
}
