// Column values as unsigned 64-bit keys whose unsigned order is the SQL order, shared by sort,
// group-by and MIN/MAX: integers with the sign bit flipped, doubles by the IEEE trick (NaN
// canonical and largest, as Double.compare), string codes through a host-computed rank of their
// value, booleans as 0/1. The kinds must match io.warpdb.exec.gpu.sort.KeyColumn.
#pragma once
#include <stdint.h>

namespace warp {

typedef unsigned long long u64;

constexpr int KEY_BOOL = 0;
constexpr int KEY_INT32 = 1;
constexpr int KEY_INT64 = 2;
constexpr int KEY_F64_ORDER = 3;     // -0.0 < 0.0: MIN/MAX pick one of the two by it
constexpr int KEY_F64_EQUALITY = 4;  // -0.0 == 0.0, as GROUP BY matches and ORDER BY ties
constexpr int KEY_RANK = 5;          // int32 dictionary code -> rank of its string value
constexpr int KEY_WIDE_HIGH = 6;     // a 128-bit DECIMAL's upper word (signed): with KEY_WIDE_LOW after it,
constexpr int KEY_WIDE_LOW = 7;      // its lower word (unsigned), an LSD sort orders the values
constexpr int KEY_CODE = 8;          // int32 dictionary code as it is: no order (ANY_VALUE picks any value)

constexpr u64 SIGN_BIT = 1ull << 63;

// One key column as the host lays it out: four 64-bit words (see KeyColumn.descriptor()).
struct KeySource {
    const void* values;
    const unsigned char* valid;  // null when the column has no NULLs
    const unsigned* ranks;       // KEY_RANK only
    long long kind;
};

__device__ __forceinline__ bool keyValid(const KeySource& k, long long row) {
    return k.valid == nullptr || k.valid[row] != 0;
}

__device__ __forceinline__ u64 doubleKey(double d, bool foldZero) {
    u64 bits;
    if (d != d) {
        bits = 0x7ff8000000000000ull;  // Double.doubleToLongBits' canonical NaN
    } else if (foldZero && d == 0.0) {
        bits = 0;
    } else {
        bits = (u64)__double_as_longlong(d);
    }
    return (bits & SIGN_BIT) ? ~bits : (bits | SIGN_BIT);
}

// The ordered key of a non-NULL row (NULL rows must not be read: their codes may be garbage).
__device__ __forceinline__ u64 orderedKey(const KeySource& k, long long row) {
    switch ((int)k.kind) {
        case KEY_BOOL:
            return ((const unsigned char*)k.values)[row] != 0 ? 1ull : 0ull;
        case KEY_INT32:
            return (u64)(long long)((const int*)k.values)[row] ^ SIGN_BIT;
        case KEY_INT64:
            return (u64)((const long long*)k.values)[row] ^ SIGN_BIT;
        case KEY_F64_ORDER:
            return doubleKey(((const double*)k.values)[row], false);
        case KEY_F64_EQUALITY:
            return doubleKey(((const double*)k.values)[row], true);
        case KEY_WIDE_HIGH:
            return (u64)((const long long*)k.values)[2 * row + 1] ^ SIGN_BIT;
        case KEY_WIDE_LOW:
            return (u64)((const long long*)k.values)[2 * row];
        case KEY_CODE:
            return (u64)(unsigned)((const int*)k.values)[row];
        default:
            return k.ranks[((const int*)k.values)[row]];
    }
}

}  // namespace warp
