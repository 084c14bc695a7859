// Hash group-by on keys packed into 63 bits: pack, insert into an open-addressing table
// (murmur3 finalizer, linear probing, atomicCAS on empty slots), then number the occupied slots (scan.cu)
// and give every row its group and every group a representative row.
#include "block.cuh"
#include "hash.cuh"
#include "../sort/ordered_key.cuh"

using namespace warp;

constexpr u64 EMPTY_SLOT = ~0ull;  // never a packed key: keys use at most 63 bits

// packed[row] = OR over keys of (NULL ? nullCode : orderedKey - min) << shift.
extern "C" __global__ void __launch_bounds__(BLOCK)
pack_keys(const KeySource* keys, int numKeys, const u64* mins, const u64* nullCodes, const u64* shifts, int n, u64* packed) {
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
        u64 p = 0;
        for (int k = 0; k < numKeys; k++) {
            KeySource s = keys[k];
            u64 code = keyValid(s, row) ? orderedKey(s, row) - mins[k] : nullCodes[k];
            p |= code << shifts[k];
        }
        packed[row] = p;
    }
}

// Inserts every row's key; rowSlot[row] = its slot; the row that claims a slot is its
// representative (slotRow). The table (`slots` slots, any count: the fill factor comes from the
// tuning rules, so it need not be a power of two) starts all EMPTY_SLOT and is never full. Block
// size and grid also come from the rules (up to 1024 threads).
extern "C" __global__ void __launch_bounds__(1024)
hash_insert(const u64* packed, int n, u64* slotKeys, int* slotRow, int* rowSlot, u64 slots) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long row = (long long)blockIdx.x * blockDim.x + threadIdx.x; row < n; row += stride) {
        u64 key = packed[row];
        u64 slot = fmix64(key) % slots;
        while (true) {
            // Look before the CAS: with few groups every row meets its key already in place, and
            // plain reads of one word are served to all of them, where CASes would queue on it.
            u64 prev = __ldcg(&slotKeys[slot]);
            if (prev == EMPTY_SLOT) {
                prev = atomicCAS(&slotKeys[slot], EMPTY_SLOT, key);
                if (prev == EMPTY_SLOT) {
                    slotRow[slot] = (int)row;
                    break;
                }
            }
            if (prev == key) break;
            slot = slot + 1 == slots ? 0 : slot + 1;
        }
        rowSlot[row] = (int)slot;
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
mark_occupied(const u64* slotKeys, int slots, unsigned* flags) {
    for (long long s = (long long)blockIdx.x * BLOCK + threadIdx.x; s < slots; s += (long long)gridDim.x * BLOCK) {
        flags[s] = slotKeys[s] != EMPTY_SLOT ? 1u : 0u;
    }
}

// groupOfSlot: exclusive scan of the occupied flags, i.e. the group number of an occupied slot.
extern "C" __global__ void __launch_bounds__(BLOCK)
slot_groups(const u64* slotKeys, const int* slotRow, const unsigned* groupOfSlot, int slots, int* representative) {
    for (long long s = (long long)blockIdx.x * BLOCK + threadIdx.x; s < slots; s += (long long)gridDim.x * BLOCK) {
        if (slotKeys[s] != EMPTY_SLOT) representative[groupOfSlot[s]] = slotRow[s];
    }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
row_groups(const int* rowSlot, const unsigned* groupOfSlot, int n, int* groupOfRow) {
    for (long long row = (long long)blockIdx.x * BLOCK + threadIdx.x; row < n; row += (long long)gridDim.x * BLOCK) {
        groupOfRow[row] = (int)groupOfSlot[rowSlot[row]];
    }
}
