// The expression interpreter: every GPU operator that evaluates SQL expressions runs programs
// compiled on the host (io.warpdb.exec.gpu.expr.ProgramCompiler) by this register machine, one
// row at a time. There is no runtime compiler on the target hosts (no NVRTC), so expression
// trees cannot become specialised kernels; a warp executes the same instruction for 32 rows, so
// the dispatch switch never diverges.
//
// Lazy evaluation. SQL evaluates some operands only for some rows: a CASE branch (and a WHEN
// after a TRUE one) only where it is chosen, a COALESCE argument only where the earlier ones are
// NULL, the right side of AND / OR only where the left side is not FALSE / TRUE. Such an operand
// must not raise errors for the other rows (`CASE WHEN d > 0 THEN n / d END`). Programs have no
// jumps (so a warp stays converged): every row runs every instruction, but carries a guard state
// `off`, 0 while the row evaluates the current operand, else the level of the guard that excluded
// it. Instructions raise errors only while off is 0; excluded rows compute the same values
// silently, and those values are never chosen. The compiler numbers guards by nesting depth, so
// an inner guard (higher level) neither excludes a row that an outer one already excluded nor
// readmits it on exit.
#pragma once
#include <stdint.h>
#include "wide.cuh"

namespace warp {

// The same list as io.warpdb.exec.gpu.expr.Opcode, in the same order (OpcodeTableTest checks it).
enum Opcode : int {
    OP_COL_I32 = 1, OP_COL_I64, OP_COL_F64, OP_COL_U8, OP_CONST, OP_NULL,
    OP_ADD_I, OP_SUB_I, OP_MUL_I, OP_NEG_I, OP_MOD_I,
    OP_ADD_F, OP_SUB_F, OP_MUL_F, OP_DIV_F, OP_MOD_F, OP_NEG_F,
    OP_SCALE_UP, OP_RESCALE, OP_MUL_RESCALE, OP_DIV_SCALED,
    OP_CHECK_BITS, OP_CHECK_PRECISION, OP_I2F, OP_F2DEC,
    OP_CMP_I, OP_CMP_F, OP_AND, OP_OR, OP_NOT, OP_TRUTH, OP_COALESCE,
    OP_LOOKUP_BOOL, OP_MAP_CODE, OP_LOOKUP_I64,
    OP_EXTRACT, OP_ADD_DAYS, OP_ADD_MONTHS, OP_DISTINCT_I, OP_DISTINCT_F,
    OP_GUARD, OP_UNGUARD, OP_CASE_THEN, OP_CASE_ELSE,
    OP_ABS_I, OP_ABS_F, OP_ROUND_F,
    OP_ROUND_I, OP_SIGN_I, OP_MATH_F, OP_POW_F,
    OP_TS_TO_DATE, OP_DATE_TO_TS, OP_TS_PART, OP_TS_TRUNC, OP_TS_ADD_MICROS, OP_TS_ADD_MONTHS,
    OP_ROUND_FLOAT, OP_CMP_SCALED, OP_DISTINCT_SCALED,
    OP_COL_W, OP_CONST_W, OP_WIDEN, OP_NARROW, OP_ADD_W, OP_SUB_W, OP_MUL_W, OP_NEG_W, OP_ABS_W,
    OP_SCALE_UP_W, OP_RESCALE_W, OP_CHECK_PRECISION_W, OP_CMP_W, OP_DISTINCT_W, OP_W2F
};

// OP_ROUND_I's rounding modes (c) and OP_MATH_F's functions (imm), as ProgramCompiler numbers them
// (VmConstantsTest checks); Java's Math gives the functions' special values as these do.
constexpr int ROUND_DOWN = 0;
constexpr int ROUND_FLOOR = 1;
constexpr int ROUND_CEILING = 2;
constexpr int MATH_SQRT = 0;
constexpr int MATH_EXP = 1;
constexpr int MATH_LN = 2;
constexpr int MATH_LOG10 = 3;
constexpr int MATH_FLOOR = 4;
constexpr int MATH_CEIL = 5;
constexpr int MATH_SIGN = 6;
constexpr int MATH_TRUNC = 7;
// OP_TS_PART's parts (imm), as ProgramCompiler.TIME_PARTS numbers them, and OP_TS_TRUNC's units
// (imm), as io.warpdb.core.value.Timestamps.Unit numbers them (VmConstantsTest checks both).
constexpr int PART_EXTRACT_HOUR = 0;
constexpr int PART_EXTRACT_MINUTE = 1;
constexpr int PART_EXTRACT_SECOND = 2;
constexpr int PART_EXTRACT_MILLISECOND = 3;
constexpr int PART_EXTRACT_MICROSECOND = 4;
constexpr int PART_EXTRACT_EPOCH = 5;
constexpr int UNIT_MICROSECOND = 0;
constexpr int UNIT_MILLISECOND = 1;
constexpr int UNIT_SECOND = 2;
constexpr int UNIT_MINUTE = 3;
constexpr int UNIT_HOUR = 4;
constexpr int UNIT_DAY = 5;
constexpr int UNIT_WEEK = 6;
constexpr int UNIT_MONTH = 7;
constexpr int UNIT_QUARTER = 8;
constexpr int UNIT_YEAR = 9;
constexpr int UNIT_DECADE = 10;
constexpr int UNIT_CENTURY = 11;
constexpr int UNIT_MILLENNIUM = 12;

// Errors reported through the kernel's error word; the host raises the SQLSTATE.
// ERR_ENTRY_BASE + p: the dictionary entry at table position p failed on the host (a bad CAST);
// the host raises that entry's error.
// ERR_TIMESTAMP_RANGE: a TIMESTAMP beyond int64 microseconds (22008, Timestamps.outOfRange).
enum ErrorCode : int { ERR_NONE = 0, ERR_OVERFLOW = 1, ERR_DIVISION_BY_ZERO = 2, ERR_TIMESTAMP_RANGE = 3, ERR_ENTRY_BASE = 16 };

struct Instr {
    int op, dst, a, b, c, imm;
};

// Everything one program evaluation reads.
struct VmInput {
    const Instr* code;
    const long long* consts;
    const int* tables;
    const unsigned long long* colValues;  // device addresses of the input columns
    const unsigned long long* colValid;   // validity byte arrays, 0 where the column has no NULLs
    int* error;
};

#define VM_SLOTS 24

// Value rules repeated from io.warpdb.core.value (VmConstantsTest checks that they agree).
// Dates: the calendar counts from 0000-03-01, in eras of 400 years.
constexpr long long DAYS_FROM_0000_03_01_TO_EPOCH = 719468;
constexpr long long DAYS_PER_400_YEARS = 146097;
// Timestamps: int64 microseconds since 1970-01-01 00:00:00.
constexpr long long MICROS_PER_SECOND = 1000000;
constexpr long long MICROS_PER_MINUTE = 60000000;
constexpr long long MICROS_PER_HOUR = 3600000000;
constexpr long long MICROS_PER_DAY = 86400000000;
// Decimals.fromDouble: a scaled double converts below 2^63 in magnitude; a fraction this near .5 is a tie.
constexpr double TWO_POW_63 = 9.223372036854775807e18;
constexpr double TIE_TOLERANCE = 1e-6;

__device__ __forceinline__ long long pow10ll(int n) {
    long long p = 1;
    for (int i = 0; i < n; i++) p *= 10;
    return p;
}

// Reports an error of a row that evaluates the current operand (off == 0; see "Lazy evaluation").
__device__ __forceinline__ void fail(int* error, int code, int off) {
    if (off == 0) atomicCAS(error, 0, code);
}

__device__ __forceinline__ bool fits64(__int128 v) {
    return v >= (__int128)INT64_MIN && v <= (__int128)INT64_MAX;
}

// num / den rounded HALF_UP (away from zero on ties) or DOWN (toward zero); den != 0.
__device__ __forceinline__ __int128 divRound(__int128 num, __int128 den, bool halfUp) {
    __int128 q = num / den;
    __int128 r = num % den;
    if (halfUp && r != 0) {
        __int128 ar = r < 0 ? -r : r;
        __int128 ad = den < 0 ? -den : den;
        if (2 * ar >= ad) q += ((num < 0) != (den < 0)) ? -1 : 1;
    }
    return q;
}

__device__ __forceinline__ double asDouble(long long bits) { return __longlong_as_double(bits); }
__device__ __forceinline__ long long asBits(double v) { return __double_as_longlong(v); }

// Howard Hinnant's civil_from_days, as io.warpdb.core.value.Dates.civil.
__device__ __forceinline__ void civil(long long z, long long& y, int& m, int& d) {
    z += DAYS_FROM_0000_03_01_TO_EPOCH;
    long long era = (z >= 0 ? z : z - (DAYS_PER_400_YEARS - 1)) / DAYS_PER_400_YEARS;
    long long doe = z - era * DAYS_PER_400_YEARS;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    d = (int)(doy - (153 * mp + 2) / 5 + 1);
    m = (int)(mp < 10 ? mp + 3 : mp - 9);
    y = yoe + era * 400 + (m <= 2 ? 1 : 0);
}

__device__ __forceinline__ long long daysFromCivil(long long y, int m, int d) {
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * DAYS_PER_400_YEARS + doe - DAYS_FROM_0000_03_01_TO_EPOCH;
}

__device__ __forceinline__ bool leap(long long y) { return (y & 3) == 0 && (y % 100 != 0 || y % 400 == 0); }

__device__ __forceinline__ int monthLength(long long y, int m) {
    return m == 2 ? (leap(y) ? 29 : 28) : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
}

__device__ __forceinline__ long long floorDiv(long long a, long long b) {
    long long q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

__device__ __forceinline__ long long floorMod(long long a, long long b) { return a - floorDiv(a, b) * b; }

// Timestamps.ofEpochDay: midnight of a day; false where that is beyond int64 microseconds.
__device__ __forceinline__ bool midnight(long long day, long long& micros) {
    const __int128 r = (__int128)day * MICROS_PER_DAY;
    micros = (long long)r;
    return fits64(r);
}

// Timestamps.truncate: the start of the unit a timestamp falls in (weeks from Monday; decades,
// centuries and millennia from years divisible by 10, 100, 1000). The sub-day units wrap in int64
// as Java's subtraction does; false where the start's midnight is beyond int64 microseconds.
__device__ __forceinline__ bool truncateTimestamp(long long micros, int unit, long long& r) {
    const long long day = floorDiv(micros, MICROS_PER_DAY);
    long long y; int m, dd;
    civil(day, y, m, dd);
    long long start;
    switch (unit) {
        case UNIT_MICROSECOND: r = micros; return true;
        case UNIT_MILLISECOND: r = (long long)((unsigned long long)micros - (unsigned long long)floorMod(micros, 1000)); return true;
        case UNIT_SECOND: r = (long long)((unsigned long long)micros - (unsigned long long)floorMod(micros, MICROS_PER_SECOND)); return true;
        case UNIT_MINUTE: r = (long long)((unsigned long long)micros - (unsigned long long)floorMod(micros, MICROS_PER_MINUTE)); return true;
        case UNIT_HOUR: r = (long long)((unsigned long long)micros - (unsigned long long)floorMod(micros, MICROS_PER_HOUR)); return true;
        case UNIT_DAY: start = day; break;
        case UNIT_WEEK: start = day - floorMod(day + 3, 7); break;
        case UNIT_MONTH: start = daysFromCivil(y, m, 1); break;
        case UNIT_QUARTER: start = daysFromCivil(y, (m - 1) / 3 * 3 + 1, 1); break;
        case UNIT_YEAR: start = daysFromCivil(y, 1, 1); break;
        case UNIT_DECADE: start = daysFromCivil(floorDiv(y, 10) * 10, 1, 1); break;
        case UNIT_CENTURY: start = daysFromCivil(floorDiv(y, 100) * 100, 1, 1); break;
        default: start = daysFromCivil(floorDiv(y, 1000) * 1000, 1, 1); break;  // UNIT_MILLENNIUM
    }
    return midnight(start, r);
}

// The sign of a * 10^shift against b (shift > 0) or of a against b * 10^-shift (shift < 0), in 128
// bits: exact numbers of scales up to 18 apart compared exactly and without overflow, as the CPU's
// ComparisonEvaluator compares them.
__device__ __forceinline__ int compareScaled(long long a, long long b, int shift) {
    __int128 x = a, y = b;
    if (shift > 0) x *= pow10ll(shift);
    else if (shift < 0) y *= pow10ll(-shift);
    return x < y ? -1 : x > y ? 1 : 0;
}

// The sign of x against y as the CPU's ComparisonEvaluator orders doubles: 0.0 equals -0.0, NaN
// equals itself and lies above every other value (DuckDB's order), where IEEE comparisons say false.
__device__ __forceinline__ int compareDoubles(double x, double y) {
    if (x < y) return -1;
    if (x > y) return 1;
    if (x == y) return 0;
    return isnan(x) ? (isnan(y) ? 0 : 1) : -1;
}

__device__ __forceinline__ int compareResult(int cmp, int c) {
    // cmp: 0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE; c: sign of (a - b)
    switch (cmp) {
        case 0: return c == 0;
        case 1: return c != 0;
        case 2: return c < 0;
        case 3: return c <= 0;
        case 4: return c > 0;
        default: return c >= 0;
    }
}

// The instructions on 128-bit values (wide.cuh), for WIDE programs: a wide operand's low word is
// in v, its high word in h. Results beyond 128 bits, or past a precision checked for, fail 22003.
__device__ __forceinline__ void vmWideStep(const VmInput& in, const Instr& I, long long* v, long long* h, bool* n, int& off,
                                           long long row) {
    const int d = I.dst;
    __int128 r = 0;
    switch (I.op) {
        case OP_COL_W: {  // a 16-byte column value
            const unsigned long long valid = in.colValid[I.a];
            n[d] = valid != 0 && ((const unsigned char*)valid)[row] == 0;
            const longlong2 w = ((const longlong2*)in.colValues[I.a])[row];
            v[d] = w.x; h[d] = w.y;
            return;
        }
        case OP_CONST_W: v[d] = in.consts[I.a]; h[d] = in.consts[I.a + 1]; n[d] = false; return;
        case OP_WIDEN: n[d] = n[I.a]; v[d] = v[I.a]; h[d] = v[I.a] >> 63; return;  // a 64-bit exact value, sign-extended
        case OP_NARROW:  // to 64 bits: 22003 where it does not fit (WideValues.checkFits)
            n[d] = n[I.a];
            if (!n[d] && h[I.a] != v[I.a] >> 63) fail(in.error, ERR_OVERFLOW, off);
            v[d] = n[d] ? 0 : v[I.a];
            return;
        case OP_ADD_W: case OP_SUB_W: case OP_MUL_W: {
            n[d] = n[I.a] || n[I.b];
            const __int128 x = wideOf(v[I.a], h[I.a]), y = wideOf(v[I.b], h[I.b]);
            const bool fits = I.op == OP_ADD_W ? addWide(x, y, r) : I.op == OP_SUB_W ? subtractWide(x, y, r) : multiplyWide(x, y, r);
            if (!n[d] && !fits) fail(in.error, ERR_OVERFLOW, off);
            break;
        }
        case OP_NEG_W: case OP_ABS_W: {
            n[d] = n[I.a];
            const __int128 x = wideOf(v[I.a], h[I.a]);
            if (!n[d] && (unsigned long long)h[I.a] == 0x8000000000000000ull && v[I.a] == 0) fail(in.error, ERR_OVERFLOW, off);
            r = I.op == OP_ABS_W && x >= 0 ? x : -x;
            break;
        }
        case OP_SCALE_UP_W:  // a * 10^imm
            n[d] = n[I.a];
            if (!scaleUpWide(wideOf(v[I.a], h[I.a]), I.imm, r) && !n[d]) fail(in.error, ERR_OVERFLOW, off);
            break;
        case OP_RESCALE_W: n[d] = n[I.a]; r = scaleDownWide(wideOf(v[I.a], h[I.a]), I.imm); break;  // a / 10^imm, HALF_UP
        case OP_CHECK_PRECISION_W:  // |a| < 10^imm
            n[d] = n[I.a];
            r = wideOf(v[I.a], h[I.a]);
            if (!n[d] && !fitsDigits(r, I.imm)) fail(in.error, ERR_OVERFLOW, off);
            break;
        case OP_CMP_W:  // a against b with a scaled by 10^c (c < 0: b by 10^-c); imm as OP_CMP_I's
            n[d] = n[I.a] || n[I.b];
            v[d] = n[d] ? 0 : compareResult(I.imm, compareWide(wideOf(v[I.a], h[I.a]), wideOf(v[I.b], h[I.b]), I.c));
            return;
        case OP_DISTINCT_W: {  // as OP_DISTINCT_SCALED on 128-bit values
            const bool distinct = n[I.a] || n[I.b] ? n[I.a] != n[I.b]
                                                   : compareWide(wideOf(v[I.a], h[I.a]), wideOf(v[I.b], h[I.b]), I.c) != 0;
            n[d] = false; v[d] = I.imm == 0 ? distinct : !distinct;
            return;
        }
        case OP_W2F:  // the value at scale imm as a double (Int128.toDouble)
            n[d] = n[I.a];
            v[d] = n[d] ? 0 : asBits(wideToDouble(wideOf(v[I.a], h[I.a]), I.imm));
            return;
        default: return;
    }
    // The arithmetic cases: a NULL's words are 0, as the other instructions leave them.
    if (n[d]) r = 0;
    v[d] = lowWord(r); h[d] = highWord(r);
}

// Executes one instruction for one row over that row's slots v (values) and n (NULL flags) and
// its guard state off. WIDE programs (ProgramCompiler marks them) hold DECIMALs of more than 18
// digits as 128-bit values whose high words are in h; the others run without h (nullptr), so that
// 64-bit programs keep their registers and their local memory.
template <bool WIDE>
__device__ __forceinline__ void vmStep(const VmInput& in, const Instr& I, long long* v, long long* h, bool* n, int& off, long long row) {
        const int d = I.dst;
        switch (I.op) {
            case OP_COL_I32:
            case OP_COL_I64:
            case OP_COL_F64:
            case OP_COL_U8: {
                const unsigned long long valid = in.colValid[I.a];
                n[d] = valid != 0 && ((const unsigned char*)valid)[row] == 0;
                const unsigned long long base = in.colValues[I.a];
                if (I.op == OP_COL_I32) v[d] = ((const int*)base)[row];
                else if (I.op == OP_COL_U8) v[d] = ((const unsigned char*)base)[row];
                else v[d] = ((const long long*)base)[row];
                break;
            }
            case OP_CONST: v[d] = in.consts[I.a]; n[d] = false; break;
            case OP_NULL: v[d] = 0; n[d] = true; break;
            case OP_ADD_I: case OP_SUB_I: case OP_MUL_I: case OP_MOD_I: {
                n[d] = n[I.a] || n[I.b];
                if (n[d]) { v[d] = 0; break; }
                __int128 x = v[I.a], y = v[I.b], r;
                if (I.op == OP_ADD_I) r = x + y;
                else if (I.op == OP_SUB_I) r = x - y;
                else if (I.op == OP_MUL_I) r = x * y;
                else {
                    if (y == 0) { fail(in.error, ERR_DIVISION_BY_ZERO, off); r = 0; }
                    else r = x % y;
                }
                if (!fits64(r)) { fail(in.error, ERR_OVERFLOW, off); r = 0; }
                v[d] = (long long)r;
                break;
            }
            case OP_NEG_I:
                n[d] = n[I.a];
                if (!n[d] && v[I.a] == INT64_MIN) fail(in.error, ERR_OVERFLOW, off);
                v[d] = n[d] ? 0 : -v[I.a];
                break;
            case OP_ADD_F: case OP_SUB_F: case OP_MUL_F: case OP_DIV_F: case OP_MOD_F: {
                n[d] = n[I.a] || n[I.b];
                if (n[d]) { v[d] = 0; break; }
                double x = asDouble(v[I.a]), y = asDouble(v[I.b]), r;
                if (I.op == OP_ADD_F) r = x + y;
                else if (I.op == OP_SUB_F) r = x - y;
                else if (I.op == OP_MUL_F) r = x * y;
                else if (y == 0) { fail(in.error, ERR_DIVISION_BY_ZERO, off); r = 0; }
                else r = I.op == OP_DIV_F ? x / y : fmod(x, y);
                v[d] = asBits(r);
                break;
            }
            case OP_NEG_F: n[d] = n[I.a]; v[d] = asBits(-asDouble(v[I.a])); break;
            case OP_ABS_I:
                n[d] = n[I.a];
                if (!n[d] && v[I.a] == INT64_MIN) fail(in.error, ERR_OVERFLOW, off);
                v[d] = n[d] ? 0 : v[I.a] < 0 ? -v[I.a] : v[I.a];
                break;
            case OP_ABS_F: n[d] = n[I.a]; v[d] = asBits(fabs(asDouble(v[I.a]))); break;
            case OP_ROUND_F: {  // half away from zero at 10^digits, as Decimals.round: consts[imm] = 10^|digits|, c = 1 when digits < 0
                n[d] = n[I.a];
                if (n[d]) { v[d] = 0; break; }
                const double x = asDouble(v[I.a]), modifier = asDouble(in.consts[I.imm]);
                const double scaled = I.c ? __ddiv_rn(x, modifier) : __dmul_rn(x, modifier);
                const double magnitude = fabs(scaled), whole = floor(magnitude);
                const double away = copysign(magnitude - whole >= 0.5 ? whole + 1 : whole, scaled);
                const double r = I.c ? __dmul_rn(away, modifier) : __ddiv_rn(away, modifier);
                v[d] = asBits(isfinite(r) ? r : I.c ? 0.0 : x);
                break;
            }
            case OP_ROUND_I: {  // a rounded to a multiple of 10^imm by mode c (FLOOR, CEIL, TRUNC of exact values), at a's scale
                n[d] = n[I.a];
                if (n[d]) { v[d] = 0; break; }
                const long long unit = pow10ll(I.imm), x = v[I.a];
                long long q = x / unit;  // toward zero: ROUND_DOWN
                if (x % unit != 0 && I.c == ROUND_FLOOR && x < 0) q -= 1;
                if (x % unit != 0 && I.c == ROUND_CEILING && x > 0) q += 1;
                __int128 r = (__int128)q * unit;
                if (!fits64(r)) { fail(in.error, ERR_OVERFLOW, off); r = 0; }
                v[d] = (long long)r;
                break;
            }
            case OP_SIGN_I:  // the sign of a times 10^imm (1 at a's scale)
                n[d] = n[I.a];
                v[d] = n[d] ? 0 : (long long)((v[I.a] > 0) - (v[I.a] < 0)) * pow10ll(I.imm);
                break;
            case OP_MATH_F: {  // a function of a DOUBLE (imm: MATH_*), IEEE special values, no errors
                n[d] = n[I.a];
                const double x = asDouble(v[I.a]);
                double r;
                switch (I.imm) {
                    case MATH_SQRT: r = sqrt(x); break;
                    case MATH_EXP: r = exp(x); break;
                    case MATH_LN: r = log(x); break;
                    case MATH_LOG10: r = log10(x); break;
                    case MATH_FLOOR: r = floor(x); break;
                    case MATH_CEIL: r = ceil(x); break;
                    case MATH_SIGN: r = x > 0 ? 1.0 : x < 0 ? -1.0 : x; break;  // Math.signum: ±0 and NaN as they are
                    default: r = trunc(x); r = r == 0 ? 0.0 : r;  // MATH_TRUNC: the CPU's BigDecimal truncation gives +0
                }
                v[d] = n[d] ? 0 : asBits(r);
                break;
            }
            case OP_POW_F: {  // Math.pow: a NaN exponent, or ±1 to an infinite one, is NaN (C's pow gives 1)
                n[d] = n[I.a] || n[I.b];
                const double x = asDouble(v[I.a]), y = asDouble(v[I.b]);
                const double r = isnan(y) || (isinf(y) && fabs(x) == 1.0) ? __longlong_as_double(0x7ff8000000000000ll) : pow(x, y);
                v[d] = n[d] ? 0 : asBits(r);
                break;
            }
            case OP_SCALE_UP: {  // a * 10^imm
                n[d] = n[I.a];
                if (n[d]) { v[d] = 0; break; }
                __int128 r = (__int128)v[I.a] * pow10ll(I.imm);
                if (!fits64(r)) { fail(in.error, ERR_OVERFLOW, off); r = 0; }
                v[d] = (long long)r;
                break;
            }
            case OP_RESCALE:  // a / 10^imm, HALF_UP
                n[d] = n[I.a];
                v[d] = n[d] ? 0 : (long long)divRound(v[I.a], pow10ll(I.imm), true);
                break;
            case OP_MUL_RESCALE: {  // (a * b) / 10^imm, HALF_UP, exact in 128 bits
                n[d] = n[I.a] || n[I.b];
                if (n[d]) { v[d] = 0; break; }
                __int128 r = divRound((__int128)v[I.a] * v[I.b], pow10ll(I.imm), true);
                if (!fits64(r)) { fail(in.error, ERR_OVERFLOW, off); r = 0; }
                v[d] = (long long)r;
                break;
            }
            case OP_DIV_SCALED: {  // (a * 10^imm) / b (imm < 0: a / (b * 10^-imm)); c = 1 for HALF_UP
                n[d] = n[I.a] || n[I.b];
                if (n[d]) { v[d] = 0; break; }
                if (v[I.b] == 0) { fail(in.error, ERR_DIVISION_BY_ZERO, off); v[d] = 0; break; }
                __int128 num = v[I.a], den = v[I.b];
                if (I.imm > 0) num *= pow10ll(I.imm);
                else if (I.imm < 0) den *= pow10ll(-I.imm);
                __int128 r = divRound(num, den, I.c != 0);
                if (!fits64(r)) { fail(in.error, ERR_OVERFLOW, off); r = 0; }
                v[d] = (long long)r;
                break;
            }
            case OP_CHECK_BITS:  // a fits a signed integer of imm bits (INTEGER 32, SMALLINT 16, TINYINT 8), as Decimals.checkFits
                n[d] = n[I.a]; v[d] = v[I.a];
                if (!n[d] && (v[d] >> (I.imm - 1)) != (v[d] >> 63)) fail(in.error, ERR_OVERFLOW, off);
                break;
            case OP_ROUND_FLOAT: {  // a REAL: the double rounded to float32 (DataType.roundToDeclared); imm 1: 22003 where a finite value becomes infinite (convertToDeclared)
                n[d] = n[I.a];
                const double x = asDouble(v[I.a]);
                const double r = (double)__double2float_rn(x);
                if (!n[d] && I.imm && isinf(r) && !isinf(x)) fail(in.error, ERR_OVERFLOW, off);
                v[d] = n[d] ? 0 : asBits(r);
                break;
            }
            case OP_CHECK_PRECISION: {
                n[d] = n[I.a]; v[d] = v[I.a];
                long long limit = pow10ll(I.imm);
                if (!n[d] && (v[d] >= limit || v[d] <= -limit)) fail(in.error, ERR_OVERFLOW, off);
                break;
            }
            case OP_I2F:  // exact (scale imm) to double
                n[d] = n[I.a];
                v[d] = asBits(I.imm == 0 ? (double)v[I.a] : (double)v[I.a] / (double)pow10ll(I.imm));
                break;
            case OP_F2DEC: {  // double to exact of scale imm, HALF_UP (away from zero on ties)
                n[d] = n[I.a];
                if (n[d]) { v[d] = 0; break; }
                double s = asDouble(v[I.a]) * (double)pow10ll(I.imm);
                if (!(fabs(s) < TWO_POW_63)) { fail(in.error, ERR_OVERFLOW, off); v[d] = 0; break; }
                double f = floor(s);
                double frac = s - f;
                // Ties round away from zero, as io.warpdb.core.value.Decimals.fromDouble.
                bool tie = fabs(frac - 0.5) < TIE_TOLERANCE;
                v[d] = (long long)f + ((tie ? s > 0 : frac > 0.5) ? 1 : 0);
                break;
            }
            case OP_CMP_I: case OP_CMP_F: {
                n[d] = n[I.a] || n[I.b];
                int c;
                if (I.op == OP_CMP_I) c = v[I.a] < v[I.b] ? -1 : v[I.a] > v[I.b] ? 1 : 0;
                else {
                    c = compareDoubles(asDouble(v[I.a]), asDouble(v[I.b]));
                }
                v[d] = n[d] ? 0 : compareResult(I.imm, c);
                break;
            }
            case OP_CMP_SCALED:  // a against b with a scaled up by 10^c (c < 0: b by 10^-c); imm as OP_CMP_I's
                n[d] = n[I.a] || n[I.b];
                v[d] = n[d] ? 0 : compareResult(I.imm, compareScaled(v[I.a], v[I.b], I.c));
                break;
            case OP_DISTINCT_SCALED: {  // as OP_DISTINCT_I with a or b scaled as by OP_CMP_SCALED
                const bool distinct = n[I.a] || n[I.b] ? n[I.a] != n[I.b] : compareScaled(v[I.a], v[I.b], I.c) != 0;
                n[d] = false; v[d] = I.imm == 0 ? distinct : !distinct;
                break;
            }
            case OP_AND: {  // FALSE wins over NULL
                bool fa = !n[I.a] && v[I.a] == 0, fb = !n[I.b] && v[I.b] == 0;
                if (fa || fb) { n[d] = false; v[d] = 0; }
                else { n[d] = n[I.a] || n[I.b]; v[d] = n[d] ? 0 : 1; }
                break;
            }
            case OP_OR: {  // TRUE wins over NULL
                bool ta = !n[I.a] && v[I.a] != 0, tb = !n[I.b] && v[I.b] != 0;
                if (ta || tb) { n[d] = false; v[d] = 1; }
                else { n[d] = n[I.a] || n[I.b]; v[d] = 0; }
                break;
            }
            case OP_NOT: n[d] = n[I.a]; v[d] = n[d] ? 0 : !v[I.a]; break;
            case OP_TRUTH: {  // imm: 0 IS NULL, 1 IS NOT NULL, 2 IS TRUE, 3 IS NOT TRUE, 4 IS FALSE, 5 IS NOT FALSE
                bool isN = n[I.a], t = !isN && v[I.a] != 0, f = !isN && v[I.a] == 0;
                bool r = I.imm == 0 ? isN : I.imm == 1 ? !isN : I.imm == 2 ? t : I.imm == 3 ? !t : I.imm == 4 ? f : !f;
                n[d] = false; v[d] = r;
                break;
            }
            case OP_COALESCE: {
                int s = n[I.a] ? I.b : I.a;
                n[d] = n[s]; v[d] = v[s];
                if constexpr (WIDE) h[d] = h[s];
                break;
            }
            case OP_LOOKUP_BOOL: {  // tables[imm + code]: 0 FALSE, 1 TRUE, 2 NULL, 3 the entry failed
                if (n[I.a]) { n[d] = true; v[d] = 0; break; }
                const int p = I.imm + (int)v[I.a];
                int t = in.tables[p];
                if (t == 3) fail(in.error, ERR_ENTRY_BASE + p, off);
                n[d] = t >= 2; v[d] = t == 1;
                break;
            }
            case OP_MAP_CODE: {  // tables[imm + code]: new code, -1 for NULL, -2 the entry failed
                if (n[I.a]) { n[d] = true; v[d] = 0; break; }
                const int p = I.imm + (int)v[I.a];
                int t = in.tables[p];
                if (t == -2) fail(in.error, ERR_ENTRY_BASE + p, off);
                n[d] = t < 0; v[d] = t < 0 ? 0 : t;
                break;
            }
            case OP_LOOKUP_I64: {  // consts[imm + code]; tables[c + code]: 0 value, 1 NULL, 2 the entry failed
                if (n[I.a]) { n[d] = true; v[d] = 0; break; }
                const int code = (int)v[I.a];
                int t = in.tables[I.c + code];
                if (t == 2) fail(in.error, ERR_ENTRY_BASE + I.c + code, off);
                n[d] = t != 0; v[d] = in.consts[I.imm + code];
                break;
            }
            case OP_EXTRACT: {  // imm: 0 YEAR, 1 QUARTER, 2 MONTH, 3 DAY, 4 DOW (0 = Sunday), 5 DOY
                n[d] = n[I.a];
                if (n[d]) { v[d] = 0; break; }
                long long y; int m, dd;
                civil(v[I.a], y, m, dd);
                switch (I.imm) {
                    case 0: v[d] = y; break;
                    case 1: v[d] = (m - 1) / 3 + 1; break;
                    case 2: v[d] = m; break;
                    case 3: v[d] = dd; break;
                    case 4: { long long w = (v[I.a] + 4) % 7; v[d] = w < 0 ? w + 7 : w; break; }
                    default: v[d] = v[I.a] - daysFromCivil(y, 1, 1) + 1; break;
                }
                break;
            }
            case OP_ADD_DAYS: {
                n[d] = n[I.a] || n[I.b];
                __int128 r = (__int128)v[I.a] + v[I.b];
                if (!n[d] && (r < INT32_MIN || r > INT32_MAX)) fail(in.error, ERR_OVERFLOW, off);
                v[d] = n[d] ? 0 : (long long)r;
                break;
            }
            case OP_ADD_MONTHS: {
                n[d] = n[I.a] || n[I.b];
                if (n[d]) { v[d] = 0; break; }
                long long y; int m, dd;
                civil(v[I.a], y, m, dd);
                long long index = y * 12 + (m - 1) + v[I.b];
                long long ny = floorDiv(index, 12);
                int nm = (int)(index - ny * 12) + 1;
                int len = monthLength(ny, nm);
                long long r = daysFromCivil(ny, nm, dd < len ? dd : len);
                if ((long long)(int)r != r) fail(in.error, ERR_OVERFLOW, off);
                v[d] = r;
                break;
            }
            case OP_TS_TO_DATE: {  // the day a timestamp falls on; 22003 beyond DATE's int32 days (Dates.checkDate)
                n[d] = n[I.a];
                const long long day = n[d] ? 0 : floorDiv(v[I.a], MICROS_PER_DAY);
                if (!n[d] && (long long)(int)day != day) fail(in.error, ERR_OVERFLOW, off);
                v[d] = day;
                break;
            }
            case OP_DATE_TO_TS: {  // midnight of a day
                n[d] = n[I.a];
                long long r = 0;
                if (!n[d] && !midnight(v[I.a], r)) fail(in.error, ERR_TIMESTAMP_RANGE, off);
                v[d] = n[d] ? 0 : r;
                break;
            }
            case OP_TS_PART: {  // imm: PART_*, as Timestamps.hour ... epochSecond
                n[d] = n[I.a];
                const long long x = v[I.a], time = floorMod(x, MICROS_PER_DAY);
                long long r;
                switch (I.imm) {
                    case PART_EXTRACT_HOUR: r = time / MICROS_PER_HOUR; break;
                    case PART_EXTRACT_MINUTE: r = time / MICROS_PER_MINUTE % 60; break;
                    case PART_EXTRACT_SECOND: r = time / MICROS_PER_SECOND % 60; break;
                    case PART_EXTRACT_MILLISECOND: r = time % MICROS_PER_MINUTE / 1000; break;
                    case PART_EXTRACT_MICROSECOND: r = time % MICROS_PER_MINUTE; break;
                    default: r = floorDiv(x, MICROS_PER_SECOND); break;  // PART_EXTRACT_EPOCH
                }
                v[d] = n[d] ? 0 : r;
                break;
            }
            case OP_TS_TRUNC: {  // imm: UNIT_*
                n[d] = n[I.a];
                long long r = 0;
                if (!n[d] && !truncateTimestamp(v[I.a], I.imm, r)) fail(in.error, ERR_TIMESTAMP_RANGE, off);
                v[d] = n[d] ? 0 : r;
                break;
            }
            case OP_TS_ADD_MICROS: {  // Timestamps.addMicros
                n[d] = n[I.a] || n[I.b];
                const __int128 r = (__int128)v[I.a] + v[I.b];
                if (!n[d] && !fits64(r)) fail(in.error, ERR_TIMESTAMP_RANGE, off);
                v[d] = n[d] ? 0 : (long long)r;
                break;
            }
            case OP_TS_ADD_MONTHS: {  // Timestamps.addMonths: the day's months moved (22003 past int64 months), the time of day kept
                n[d] = n[I.a] || n[I.b];
                if (n[d]) { v[d] = 0; break; }
                const long long x = v[I.a], day = floorDiv(x, MICROS_PER_DAY);
                long long y; int m, dd;
                civil(day, y, m, dd);
                const __int128 index = (__int128)(y * 12 + (m - 1)) + v[I.b];
                if (!fits64(index)) { fail(in.error, ERR_OVERFLOW, off); v[d] = 0; break; }
                const long long ny = floorDiv((long long)index, 12);
                const int nm = (int)((long long)index - ny * 12) + 1;
                const int len = monthLength(ny, nm);
                long long start = 0;
                const bool inRange = midnight(daysFromCivil(ny, nm, dd < len ? dd : len), start);
                const __int128 r = (__int128)start + floorMod(x, MICROS_PER_DAY);
                if (!inRange || !fits64(r)) fail(in.error, ERR_TIMESTAMP_RANGE, off);
                v[d] = (long long)r;
                break;
            }
            case OP_DISTINCT_I: case OP_DISTINCT_F: {  // imm 0: IS DISTINCT FROM, 1: IS NOT DISTINCT FROM
                bool distinct;
                if (n[I.a] || n[I.b]) distinct = n[I.a] != n[I.b];
                else if (I.op == OP_DISTINCT_I) distinct = v[I.a] != v[I.b];
                else distinct = compareDoubles(asDouble(v[I.a]), asDouble(v[I.b])) != 0;  // NaN is not distinct from NaN
                n[d] = false; v[d] = I.imm == 0 ? distinct : !distinct;
                break;
            }
            // Guards (see "Lazy evaluation"); c is the guard's level, at least 1.
            case OP_GUARD: {  // excludes the row unless a holds: imm 0 IS TRUE, 1 IS NOT FALSE, 2 IS NOT TRUE, 3 IS NULL
                if (off != 0) break;
                bool isN = n[I.a], t = !isN && v[I.a] != 0;
                bool holds = I.imm == 0 ? t : I.imm == 1 ? (isN || t) : I.imm == 2 ? !t : isN;
                if (!holds) off = I.c;
                break;
            }
            case OP_UNGUARD:
                if (off == I.c) off = 0;
                break;
            // CASE: a row that takes a branch is excluded at level c until the CASE ends, so later
            // WHENs and branches do not run for it; level c + 1 is a THEN's own guard (a TRUE).
            case OP_CASE_THEN: {  // d = b where WHEN a is TRUE for an evaluating row; imm 1: the first WHEN (d = NULL elsewhere)
                if (off == 0 && !n[I.a] && v[I.a] != 0) {
                    n[d] = n[I.b]; v[d] = v[I.b];
                    if constexpr (WIDE) h[d] = h[I.b];
                    off = I.c;
                } else {
                    if (I.imm) { n[d] = true; v[d] = 0; }
                    if (off == I.c + 1) off = 0;
                }
                break;
            }
            case OP_CASE_ELSE:  // d = a for a row no WHEN took; ends the CASE
                if (off == 0) {
                    n[d] = n[I.a]; v[d] = v[I.a];
                    if constexpr (WIDE) h[d] = h[I.a];
                }
                if (off == I.c) off = 0;
                break;
        }
        if constexpr (WIDE) vmWideStep(in, I, v, h, n, off, row);
}

// Runs instructions [start, start+len) for one row; returns the value of slot `result` and
// whether it is NULL through `isNull`; a WIDE program's result's high word through `high`.
template <bool WIDE>
__device__ long long vmEval(const VmInput& in, int start, int len, int result, long long row, bool& isNull, long long& high) {
    long long v[VM_SLOTS];
    long long h[WIDE ? VM_SLOTS : 1];
    bool n[VM_SLOTS];
    int off = 0;
    for (int pc = start; pc < start + len; pc++) {
        vmStep<WIDE>(in, in.code[pc], v, WIDE ? h : nullptr, n, off, row);
    }
    isNull = n[result];
    high = WIDE ? h[result] : 0;
    return v[result];
}

__device__ __forceinline__ long long vmEval(const VmInput& in, int start, int len, int result, long long row, bool& isNull) {
    long long high;
    return vmEval<false>(in, start, len, result, row, isNull, high);
}

// The same for K rows at once. Column loads of all K rows are issued before any is stored, so a
// thread has K memory requests in flight where the one-row interpreter has one: the interpreter's
// slots live in local memory, and storing a loaded value into them waits for the load.
template <int K, bool WIDE>
__device__ __forceinline__ void vmEvalRows(const VmInput& in, int start, int len, int result, const long long (&rows)[K],
                                           const bool (&active)[K], long long (&out)[K], long long (&outHigh)[K],
                                           bool (&outNull)[K]) {
    long long v[K][VM_SLOTS];
    long long h[K][WIDE ? VM_SLOTS : 1];
    bool n[K][VM_SLOTS];
    int off[K];
#pragma unroll
    for (int k = 0; k < K; k++) off[k] = 0;
    for (int pc = start; pc < start + len; pc++) {
        const Instr I = in.code[pc];
        if (I.op >= OP_COL_I32 && I.op <= OP_COL_U8) {
            const unsigned long long base = in.colValues[I.a];
            const unsigned long long valid = in.colValid[I.a];
            long long value[K];
            unsigned char present[K];
#pragma unroll
            for (int k = 0; k < K; k++) {
                value[k] = 0;
                present[k] = 1;
                if (active[k]) {
                    if (I.op == OP_COL_I32) value[k] = __ldg((const int*)base + rows[k]);
                    else if (I.op == OP_COL_U8) value[k] = __ldg((const unsigned char*)base + rows[k]);
                    else value[k] = __ldg((const long long*)base + rows[k]);
                    if (valid != 0) present[k] = __ldg((const unsigned char*)valid + rows[k]);
                }
            }
#pragma unroll
            for (int k = 0; k < K; k++) {
                v[k][I.dst] = value[k];
                n[k][I.dst] = present[k] == 0;
            }
        } else {
#pragma unroll
            for (int k = 0; k < K; k++) {
                if (active[k]) vmStep<WIDE>(in, I, v[k], WIDE ? h[k] : nullptr, n[k], off[k], rows[k]);
            }
        }
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
        out[k] = active[k] ? v[k][result] : 0;
        outHigh[k] = WIDE && active[k] ? h[k][result] : 0;
        outNull[k] = active[k] ? n[k][result] : true;
    }
}

}  // namespace warp
