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
constexpr int OP_SUM_SQUARES = 7;   // count, a = low word, b = high word of the exact sum of squares (variances)

}  // namespace warp
