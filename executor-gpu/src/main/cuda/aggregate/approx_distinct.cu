// APPROX_COUNT_DISTINCT: the HyperLogLog of io.warpdb.core.value.HyperLogLog (2^14 one-byte
// registers over 64-bit hashes), computed as the CPU's sketches would end up: value_hashes hashes
// each row as HyperLogLog.hash does; the host counts each group's distinct hashes (a group-by) and
// gives the groups of more than SPARSE_LIMIT of them a register block; add_to_registers fills the
// blocks, and register_sums sums 2^-register per block in register order, in doubles, as
// HyperLogLog.estimate does, so that the host's denseEstimate gives the CPU's estimate bit for bit.
#include "../sort/ordered_key.cuh"

using namespace warp;

constexpr int PRECISION = 14;  // HyperLogLog.PRECISION
constexpr int REGISTERS = 1 << PRECISION;

// HyperLogLog.hash(long): SplitMix64's Mix13 finalizer.
__device__ __forceinline__ u64 mix13(u64 v) {
    u64 z = v + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Each valid row's hash (NULL rows keep whatever is there; validOut copies their validity when
// non-null): integers of every width as their long value, doubles as Double.doubleToLongBits with
// -0.0 as 0.0, booleans as 0/1, strings (kind KEY_RANK) through codeHashes, the host's hash of
// each dictionary entry's text. kind is a KeyColumn kind.
extern "C" __global__ void value_hashes(const void* values, const unsigned char* valid, const u64* codeHashes, int kind, int rows,
                                        u64* out, unsigned char* validOut) {
    for (long long row = blockIdx.x * (long long)blockDim.x + threadIdx.x; row < rows; row += (long long)gridDim.x * blockDim.x) {
        const bool isValid = valid == nullptr || valid[row] != 0;
        if (validOut != nullptr) {
            validOut[row] = isValid ? 1 : 0;
        }
        if (!isValid) {
            continue;
        }
        u64 h;
        switch (kind) {
            case KEY_BOOL:
                h = mix13(((const unsigned char*)values)[row] != 0 ? 1ull : 0ull);
                break;
            case KEY_INT32:
                h = mix13((u64)(long long)((const int*)values)[row]);
                break;
            case KEY_INT64:
                h = mix13(((const u64*)values)[row]);
                break;
            case KEY_RANK:
                h = codeHashes[((const int*)values)[row]];
                break;
            default: {  // KEY_F64_ORDER, KEY_F64_EQUALITY
                const double d = ((const double*)values)[row];
                const u64 bits = d != d ? 0x7ff8000000000000ull : d == 0.0 ? 0ull : (u64)__double_as_longlong(d);
                h = mix13(bits);
            }
        }
        out[row] = h;
    }
}

// Raises register `bucket` of the block at `registers` to `rank` (one byte each, four per word:
// bytes have no atomic max, their word is compared and swapped).
__device__ __forceinline__ void raiseRegister(unsigned* registers, int bucket, unsigned rank) {
    unsigned* word = registers + (bucket >> 2);
    const int shift = (bucket & 3) * 8;
    unsigned old = *word;
    while (((old >> shift) & 0xffu) < rank) {
        const unsigned updated = (old & ~(0xffu << shift)) | (rank << shift);
        const unsigned seen = atomicCAS(word, old, updated);
        if (seen == old) {
            break;
        }
        old = seen;
    }
}

// Adds each valid row's hash to its group's register block: groupOfRow (int32 per row; null: one
// group 0), blockOfGroup (int32 per group: its block, -1 for a group counted exactly). Bucket and
// rank as HyperLogLog.bucket and rank.
extern "C" __global__ void add_to_registers(const u64* hashes, const unsigned char* valid, const int* groupOfRow, const int* blockOfGroup,
                                            int rows, unsigned* registers) {
    for (long long row = blockIdx.x * (long long)blockDim.x + threadIdx.x; row < rows; row += (long long)gridDim.x * blockDim.x) {
        if (valid != nullptr && valid[row] == 0) {
            continue;
        }
        const int block = blockOfGroup[groupOfRow == nullptr ? 0 : groupOfRow[row]];
        if (block < 0) {
            continue;
        }
        const u64 h = hashes[row];
        const int bucket = (int)(h >> (64 - PRECISION));
        const unsigned rank = __clzll((long long)((h << PRECISION) | (1ull << (PRECISION - 1)))) + 1;
        raiseRegister(registers + (long long)block * (REGISTERS / 4), bucket, rank);
    }
}

// Per register block (one thread each): the sum of 2^-register, added in register order in
// doubles (HyperLogLog.estimate's loop, whose rounding depends on that order), and the number of
// registers at 0.
extern "C" __global__ void register_sums(const unsigned char* registers, int blocks, double* inverseSums, long long* empties) {
    for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b < blocks; b += (long long)gridDim.x * blockDim.x) {
        const unsigned char* r = registers + b * REGISTERS;
        double sum = 0;
        long long empty = 0;
        for (int i = 0; i < REGISTERS; i++) {
            const int rank = r[i];
            sum = __dadd_rn(sum, __longlong_as_double((long long)(1023 - rank) << 52));  // 2^-rank exactly; no contraction
            empty += rank == 0 ? 1 : 0;
        }
        inverseSums[b] = sum;
        empties[b] = empty;
    }
}
