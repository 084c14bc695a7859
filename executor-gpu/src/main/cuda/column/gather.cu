// GATHER: out[i] = in[rows[i]] for a column of 1, 4 or 8 byte values and its validity bytes; the
// last stage of operators that produce row ids (group representatives, sort permutations).
extern "C" __global__ void gather(const unsigned char* values, const unsigned char* valid, int width,
                                  const int* rows, long long count, unsigned char* out, unsigned char* outValid) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x) {
        long long r = rows[i];
        if (width == 8) ((long long*)out)[i] = ((const long long*)values)[r];
        else if (width == 4) ((int*)out)[i] = ((const int*)values)[r];
        else out[i] = values[r];
        if (outValid != nullptr) outValid[i] = valid == nullptr ? 1 : valid[r];
    }
}
