// Hashing shared by the hash kernels (group-by, join).
#pragma once

namespace warp {

// The 64-bit finalizer of MurmurHash3: a bijection that spreads every input bit over the word.
__device__ __forceinline__ unsigned long long fmix64(unsigned long long k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

}  // namespace warp
