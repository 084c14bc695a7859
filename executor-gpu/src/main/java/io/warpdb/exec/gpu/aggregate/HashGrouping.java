package io.warpdb.exec.gpu.aggregate;

import io.warpdb.exec.gpu.runtime.DeviceBudget;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.PrefixSum;

/**
 * Groups rows by packed keys in an open-addressing hash table (aggregate/group_hash.cu): insert
 * with atomicCAS and linear probing, then number the occupied slots in slot order. The table's
 * size and the insert kernel's grid follow {@link GroupByTuning}.
 */
final class HashGrouping {
    private static final String MODULE = "aggregate/group_hash";
    /** Bytes per slot the insert kernel touches: the packed key and the representative row. */
    static final int SLOT_BYTES = Long.BYTES + Integer.BYTES;

    private HashGrouping() {
    }

    /** What the table may take under the work's device budget: an eighth of what it has left (no bound without one). */
    private static long tableRoom(DeviceWork work) {
        DeviceBudget budget = work.budget();
        return budget == null ? Long.MAX_VALUE : (budget.capacity() - budget.used()) / 8;
    }

    static Groups group(DeviceBuffer keyDescriptors, int keyCount, KeyPacking packing, int rows, DeviceWork work) {
        GroupByTuning.TablePlan table = GroupByTuning.table(packing.groupBound(), SLOT_BYTES,
                GroupByTuning.Device.of(work.device()), tableRoom(work));
        int slots = table.slots();
        int grid = GridSize.strided(rows, work);
        try (DeviceBuffer mins = work.upload(packing.mins(), "group key mins");
                DeviceBuffer nullCodes = work.upload(packing.nullCodes(), "group key null codes");
                DeviceBuffer shifts = work.upload(packing.shifts(), "group key shifts");
                DeviceBuffer packed = work.allocate((long) rows * Long.BYTES, "packed group keys");
                DeviceBuffer slotKeys = work.allocate((long) slots * Long.BYTES, "hash slot keys");
                DeviceBuffer slotRow = work.allocate((long) slots * Integer.BYTES, "hash slot rows");
                DeviceBuffer rowSlot = work.allocate((long) rows * Integer.BYTES, "row slots");
                DeviceBuffer occupied = work.allocate((long) slots * Integer.BYTES, "occupied slots");
                DeviceBuffer groupOfSlot = work.allocate(((long) slots + 1) * Integer.BYTES, "slot groups")) {
            work.kernel(MODULE, "pack_keys").launch(work.stream(), grid, GridSize.BLOCK, 0, keyDescriptors, keyCount, mins,
                    nullCodes, shifts, rows, packed);
            slotKeys.fill((byte) 0xFF, (long) slots * Long.BYTES, work.stream());
            work.kernel(MODULE, "hash_insert").launch(work.stream(), table.blocks(), table.threads(), 0, packed, rows, slotKeys,
                    slotRow, rowSlot, (long) slots);
            work.kernel(MODULE, "mark_occupied").launch(work.stream(), GridSize.strided(slots, work), GridSize.BLOCK, 0,
                    slotKeys, slots, occupied);
            PrefixSum.exclusive(occupied, groupOfSlot, slots, work);
            int groups = PrefixSum.total(groupOfSlot, slots, work);
            DeviceBuffer groupOfRow = work.allocate((long) rows * Integer.BYTES, "group of row");
            DeviceBuffer representatives = null;
            try {
                representatives = work.allocate((long) groups * Integer.BYTES, "group representatives");
                work.kernel(MODULE, "slot_groups").launch(work.stream(), GridSize.strided(slots, work), GridSize.BLOCK, 0,
                        slotKeys, slotRow, groupOfSlot, slots, representatives);
                work.kernel(MODULE, "row_groups").launch(work.stream(), grid, GridSize.BLOCK, 0, rowSlot, groupOfSlot, rows,
                        groupOfRow);
                return new Groups(groupOfRow, representatives, groups);
            } catch (RuntimeException e) {
                groupOfRow.close();
                if (representatives != null) {
                    representatives.close();
                }
                throw e;
            }
        }
    }
}
