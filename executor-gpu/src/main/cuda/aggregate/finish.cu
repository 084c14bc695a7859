// Turns each group's accumulated state (accumulate.cu) into the aggregate's value on the device,
// by the rules of the host's twin (AggregateResults, core's ExactSums and Decimals): counts,
// exact sums rescaled or averaged with HALF_UP (DOWN for integer results), double sums, MIN/MAX
// keys decoded; a SUM typed as a wide DECIMAL (DECIMAL(38, s) of a narrower argument) is the
// 128-bit sum itself. What the common path cannot give exactly (a narrow sum beyond 64 bits, a
// value out of the result's range, several rows for SINGLE_VALUE) sets the aggregate's flag, and
// the host finishes that aggregate instead, raising the error the CPU raises.
#include "block.cuh"
#include "../sort/ordered_key.cuh"
#include "state.cuh"
#include "exact_sum.cuh"

using namespace warp;

// FinishSpec and the flags must match io.warpdb.exec.gpu.aggregate.DeviceFinish.
struct FinishSpec {
    long long op;
    long long keyKind;      // the argument's ordered-key kind (MIN, MAX, SINGLE_VALUE)
    long long average;      // AVG rather than SUM
    long long inputScale;   // of the summed values
    long long resultScale;  // of the result (0 unless DECIMAL)
    long long flags;        // FIT_INT32 | ROUND_HALF_UP
    long long width;        // bytes per result value: 1, 4, 8 or 16 (a wide DECIMAL SUM, at its argument's scale)
    const u64* count;
    const u64* a;
    const u64* b;
    void* out;
    unsigned char* valid;
};
static_assert(sizeof(FinishSpec) == 12 * 8, "twelve words per aggregate, as DeviceFinish writes them");

constexpr long long FIT_INT32 = 1;      // an INTEGER result: out of int32 range is an error
constexpr long long ROUND_HALF_UP = 2;  // a DECIMAL average rounds HALF_UP, an integer one truncates

// The upper word of 10^38, the first value a DECIMAL(38, s) cannot hold: a 128-bit sum whose upper
// word is smaller in magnitude fits; the few beyond it are the host's to check exactly.
constexpr long long DECIMAL38_HIGH = 0x4B3B4CA85A86C47All;

// The value of an exact SUM or AVG whose sum fits 64 bits; false when it needs the host.
__device__ __forceinline__ bool exactValue(const FinishSpec& s, long long sum, long long n, long long& value) {
    return exactSumValue(sum, n, (int)s.inputScale, (int)s.resultScale, s.average != 0, (s.flags & ROUND_HALF_UP) != 0,
                         (s.flags & FIT_INT32) != 0, value);
}

// The physical value of an ordered key (AggregateResults.decode).
__device__ __forceinline__ long long decodeKey(u64 key, int kind) {
    switch (kind) {
        case KEY_BOOL:
        case KEY_RANK:
        case KEY_CODE:
            return (long long)key;
        case KEY_INT32:
        case KEY_INT64:
            return (long long)(key ^ SIGN_BIT);
        default:  // doubles: undo the IEEE trick
            return (long long)((key & SIGN_BIT) ? key ^ SIGN_BIT : ~key);
    }
}

// One thread per group, every aggregate; needsHost[a] = 1 when aggregate a must be finished on the host.
extern "C" __global__ void __launch_bounds__(BLOCK)
finish_groups(const FinishSpec* specs, int numAggs, int groups, int* needsHost) {
    for (long long g = (long long)blockIdx.x * BLOCK + threadIdx.x; g < groups; g += (long long)gridDim.x * BLOCK) {
        for (int a = 0; a < numAggs; a++) {
            const FinishSpec s = specs[a];
            const long long n = (long long)s.count[g];
            long long value = 0;
            long long wideHigh = 0;  // the upper word of a 16-byte result
            bool valid = true;
            bool ok = true;
            switch ((int)s.op) {
                case OP_COUNT_ROWS:
                case OP_COUNT:
                    value = n;
                    ok = !(s.flags & FIT_INT32) || n <= 2147483647ll;
                    break;
                case OP_SUM_EXACT: {
                    valid = n != 0;
                    if (valid && s.width == 16) {
                        value = (long long)s.a[g];
                        wideHigh = (long long)s.b[g];
                        ok = wideHigh > -DECIMAL38_HIGH && wideHigh < DECIMAL38_HIGH;
                    } else if (valid) {
                        const long long low = (long long)s.a[g];
                        ok = (long long)s.b[g] == (low >> 63) && exactValue(s, low, n, value);
                    }
                    break;
                }
                case OP_SUM_DOUBLE: {
                    valid = n != 0;
                    const double sum = __longlong_as_double((long long)s.a[g]);
                    value = valid ? __double_as_longlong(s.average ? sum / (double)n : sum) : 0;
                    break;
                }
                case OP_SINGLE_VALUE:
                    ok = n <= 1;
                    valid = s.b[g] != 0;
                    value = valid ? decodeKey(s.a[g], (int)s.keyKind) : 0;
                    break;
                case OP_MIN:
                case OP_MAX:
                default:
                    valid = n != 0;
                    value = valid ? decodeKey(s.a[g], (int)s.keyKind) : 0;
                    break;
            }
            if (!ok) {
                needsHost[a] = 1;
                continue;
            }
            if (s.width == 16) ((longlong2*)s.out)[g] = make_longlong2(value, wideHigh);
            else if (s.width == 8) ((long long*)s.out)[g] = value;
            else if (s.width == 4) ((int*)s.out)[g] = (int)value;
            else ((unsigned char*)s.out)[g] = (unsigned char)value;
            s.valid[g] = valid ? 1 : 0;
        }
    }
}
