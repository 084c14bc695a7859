// The aggregate operations and what each keeps per group (count, a, b), shared by the kernels
// that accumulate the state (accumulate.cu) and finish it into results (finish.cu).
#pragma once

namespace warp {

// Must match io.warpdb.exec.gpu.aggregate.Accumulation.
constexpr int OP_COUNT_ROWS = 0;    // COUNT(*): count = rows
constexpr int OP_COUNT = 1;         // COUNT(x): count = non-NULL values
constexpr int OP_SUM_EXACT = 2;     // count, a = low word, b = high word
constexpr int OP_SUM_DOUBLE = 3;    // count, a = double sum
constexpr int OP_MIN = 4;           // count, a = smallest ordered key (starts ~0)
constexpr int OP_MAX = 5;           // count, a = largest ordered key (starts 0)
constexpr int OP_SINGLE_VALUE = 6;  // count = rows, a = MIN of the values, b = 1 when a value was seen
// Variances (VarianceAggregation). An exact value v = h * 2^32 + l (h = v >> 32, l its low 32 bits
// unsigned) has v^2 = h^2 * 2^64 + h * l * 2^33 + l^2: three sums that each fit 128 bits for 2^31
// rows of any 64-bit value, kept as OP_SUM_EXACT keeps a sum (count, a = low word, b = high word).
constexpr int OP_SQUARES_HIGH = 7;   // sum of h^2
constexpr int OP_SQUARES_CROSS = 8;  // sum of h * l
constexpr int OP_SQUARES_LOW = 9;    // sum of l^2
// DOUBLE values, the second pass over them: with m the group's mean from the first pass (its
// OP_SUM_DOUBLE state, AggSpec.center*), count, a = sum of (x - m)^2, b = sum of (x - m), both doubles.
constexpr int OP_DEVIATIONS = 10;
// A wide DECIMAL v = h * 2^64 + l (16 bytes, l unsigned): its sum as the sum of l and the sum of h,
// each kept as OP_SUM_EXACT keeps a sum; neither can overflow 128 bits below 2^63 rows.
constexpr int OP_WIDE_LOW = 11;   // sum of l
constexpr int OP_WIDE_HIGH = 12;  // sum of h
// A wide DECIMAL's MIN (MAX): a first pass picks the least (greatest) h as OP_MIN (OP_MAX) does,
// reading h as an ordered key; this second one, a = the least (greatest) l among the rows whose h
// is the group's pick (AggSpec.centerSum: the first pass's a).
constexpr int OP_WIDE_MIN_LOW = 13;
constexpr int OP_WIDE_MAX_LOW = 14;

}  // namespace warp
